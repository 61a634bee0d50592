import { describe, expect, it } from "vitest";
import { ERROR_CODE_LIST } from "@/lib/errors";
import { ERROR_STATUS, problem, ZProblem } from "./problem";

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

  it("gives every domain error code a status and a body that fits ZProblem", async () => {
    for (const code of ERROR_CODE_LIST) {
      const res = problem(code, "detail");
      expect(res.status).toBe(ERROR_STATUS[code]);
      expect(ZProblem.safeParse(await res.json()).success).toBe(true);
    }
  });

  it("adds the headers a code always carries", () => {
    expect(problem("unauthorized", "x").headers.get("www-authenticate")).toBe('ApiKey header="X-Api-Key"');
    expect(problem("service_unavailable", "x", { retryAfterSeconds: 5 }).headers.get("retry-after")).toBe("5");
    expect(problem("unsupported_media_type", "x").headers.get("accept-post")).toBe("application/json");
  });
});
