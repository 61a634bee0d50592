import { describe, expect, it } from "vitest";
import { ifNoneMatchMatches } from "./conditional";

describe("ifNoneMatchMatches", () => {
  it("matches one tag, a list, a weak tag and *", () => {
    expect(ifNoneMatchMatches('"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchMatches('"x", "abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchMatches('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchMatches("*", '"abc"')).toBe(true);
  });
  it("does not match other tags or nothing", () => {
    expect(ifNoneMatchMatches('"abd"', '"abc"')).toBe(false);
    expect(ifNoneMatchMatches(null, '"abc"')).toBe(false);
    expect(ifNoneMatchMatches("", '"abc"')).toBe(false);
  });
});
