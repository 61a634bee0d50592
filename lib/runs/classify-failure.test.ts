import { describe, expect, it } from "vitest";
import { InputDataError, ResourceLimitError } from "@/lib/errors";
import { StepError } from "@/lib/engine/errors";
import { classifyRunFailure } from "./classify-failure";

describe("classifyRunFailure", () => {
  it("decides by class, whatever the message says", () => {
    // A bug whose message mentions "layer" and "geometry" is still a bug, not bad data.
    const bug = classifyRunFailure(new TypeError("Cannot read properties of undefined (reading 'geometry') in layer input"));
    expect(bug).toMatchObject({ kind: "fail", bug: true, error: { code: "internal_error" } });
    expect(JSON.stringify(bug)).not.toContain("Cannot read");
    // An encoder failing with any message fails the run at once instead of being retried.
    expect(classifyRunFailure(new Error("unexpected value in column 7"))).toMatchObject({ kind: "fail", error: { code: "internal_error" } });
  });

  it("tells the caller's data, a failing step, an exceeded limit and a bug apart", () => {
    expect(classifyRunFailure(new InputDataError('Layer "x" does not exist (any more).'))).toMatchObject({
      kind: "fail",
      bug: false,
      error: { code: "invalid_input" },
    });
    expect(classifyRunFailure(new StepError("buf", "buffer", new Error("ring has too few positions")))).toMatchObject({
      kind: "fail",
      bug: false,
      error: { code: "step_failed", step: "buf" },
    });
    expect(classifyRunFailure(new StepError("buf", "buffer", new TypeError("x is not a function")))).toMatchObject({
      kind: "fail",
      bug: true,
      error: { code: "internal_error", step: "buf" },
    });
    expect(classifyRunFailure(new ResourceLimitError("The run needed more than 512 MB.", "memory 512 MB"))).toMatchObject({
      kind: "fail",
      error: { code: "resources_exhausted", limit: "memory 512 MB" },
    });
  });

  it("retries only an unreachable database", () => {
    expect(classifyRunFailure(Object.assign(new Error("connect failed"), { code: "ECONNREFUSED" }))).toEqual({ kind: "retry" });
    expect(classifyRunFailure(Object.assign(new Error("x"), { cause: { code: "57P01" } }))).toEqual({ kind: "retry" });
    expect(classifyRunFailure(Object.assign(new Error("duplicate key"), { code: "23505" }))).toMatchObject({ kind: "fail" });
  });
});
