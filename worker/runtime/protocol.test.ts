import { describe, expect, it } from "vitest";
import { InputDataError, ResourceLimitError } from "@/lib/errors";
import { StepError } from "@/lib/engine/errors";
import { classifyRunFailure } from "@/lib/runs/classify-failure";
import { errorToFailure, failureToError } from "./protocol";

/** An error as the worker sees it after it crossed the process boundary (structured clone of the plain data). */
const crossed = (err: unknown) => failureToError(structuredClone(errorToFailure(err)));

describe("run failures across the process boundary", () => {
  it("are classified as they would be in the run process", () => {
    const cases: unknown[] = [
      new InputDataError("bad input", "places"),
      new ResourceLimitError("too much", "memory 256 MB"),
      new StepError("buf", "buffer", new Error("ring has too few positions")),
      new StepError("buf", "buffer", new TypeError("x is not a function")),
      new StepError("buf", "buffer", new ResourceLimitError("too many rows", "rows 10")),
      new StepError("buf", "buffer", "a thrown string"),
      new RangeError("a bug"),
    ];
    for (const err of cases) expect(classifyRunFailure(crossed(err))).toEqual(classifyRunFailure(err));
  });

  it("keeps a bug's class, name and stack, and an abort's name", () => {
    const bug = new TypeError("x is not a function");
    const back = crossed(bug);
    expect(back).toBeInstanceOf(TypeError);
    expect(back.stack).toBe(bug.stack);
    expect(crossed(new RangeError("r")).name).toBe("RangeError");
    expect(crossed(Object.assign(new Error("stop"), { name: "AbortError" })).name).toBe("AbortError");
  });
});
