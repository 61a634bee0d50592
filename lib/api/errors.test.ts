import { describe, expect, it } from "vitest";
import { toPointer } from "./errors";
import { problem } from "./problem";

describe("toPointer", () => {
  it("escapes ~ and / as RFC 6901 says", () => {
    expect(toPointer(["inputs", "a/b", "c~d", 0])).toBe("/inputs/a~1b/c~0d/0");
    expect(toPointer([])).toBe("");
  });
});

describe("problem", () => {
  it("builds an RFC 9457 body with a stable type and the mapped status", async () => {
    const res = problem("validation_failed", "bad", { instance: "/x", errors: [{ field: "/a", code: "c", message: "m" }] });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toEqual({
      type: "https://flow-api.dev/problems/validation-failed",
      title: "The request is invalid",
      status: 422,
      detail: "bad",
      instance: "/x",
      code: "validation_failed",
      errors: [{ field: "/a", code: "c", message: "m" }],
    });
  });
});
