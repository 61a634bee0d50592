import { describe, expect, it } from "vitest";
import { ERROR_CODE_LIST } from "@/lib/errors";
import { ERROR_STATUS } from "@/lib/errors/app-error";
import { problem, ZProblem } from "./problem";

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

  it("titles a 401 by door: the API key at the key doors, signing in for the browser; only the public API challenges", async () => {
    const key = problem("unauthorized", "x");
    const mcp = problem("unauthorized", "x", { door: "mcp" });
    const session = problem("unauthorized", "x", { door: "session" });
    expect([(await key.json()).title, (await mcp.json()).title, (await session.json()).title]).toEqual([
      "Missing or invalid API key",
      "Missing or invalid API key",
      "Sign-in required",
    ]);
    expect([mcp.headers.get("www-authenticate"), session.headers.get("www-authenticate")]).toEqual([null, null]);
    expect((await problem("forbidden", "x", { door: "session" }).json()).title).toBe("Not allowed");
  });
});
