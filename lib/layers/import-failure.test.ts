import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "@/lib/errors";
import { importFailureError } from "./import-failure";

describe("importFailureError", () => {
  it("keeps a client error's code, detail and field errors, so the route answers 400, 413 or 422 as the import found", () => {
    const errors = [{ field: "/file/features/0/properties/deep", code: "too_deep", message: "..." }];
    for (const code of ["validation_failed", "payload_too_large", "bad_request"] as const) {
      const err = importFailureError({ code, detail: "What went wrong.", errors });
      expect([err.code, err.detail, err.errors, ERROR_STATUS[err.code]]).toEqual([
        code,
        "What went wrong.",
        errors,
        { validation_failed: 422, payload_too_large: 413, bad_request: 400 }[code],
      ]);
    }
  });

  it("answers internal for a server error or a code it does not know", () => {
    for (const code of ["internal", "service_unavailable", "no_such_code", "constructor"])
      expect(importFailureError({ code, detail: "x" }).code).toBe("internal");
  });
});
