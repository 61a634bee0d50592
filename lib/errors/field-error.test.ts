import { describe, expect, it } from "vitest";
import { jsonPointer } from "./field-error";

describe("jsonPointer", () => {
  it("escapes ~ and / as RFC 6901 says", () => {
    expect(jsonPointer(["inputs", "a/b", "c~d", 0])).toBe("/inputs/a~1b/c~0d/0");
    expect(jsonPointer([])).toBe("");
  });
});
