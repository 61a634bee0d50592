import { describe, expect, it } from "vitest";
import { AppError, canonicalEntries } from "@/lib/errors";

describe("canonicalEntries", () => {
  const upper = (v: string) => (/^[a-z]+$/i.test(v.trim()) ? v.trim().toUpperCase() : null);

  it("keeps each non-blank entry once, canonical, in order", () => {
    expect(canonicalEntries(["b", " a ", "", "B", "c"], upper, "hosts", "bad", (e) => e)).toEqual(["B", "A", "C"]);
  });

  it("names every bad entry by its line", () => {
    try {
      canonicalEntries(["ok", "n0pe", "  ", "x y"], upper, "hosts", "invalid_host", (e) => `"${e}" is bad.`);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).errors).toEqual([
        { field: "/hosts/1", code: "invalid_host", message: '"n0pe" is bad.' },
        { field: "/hosts/3", code: "invalid_host", message: '"x y" is bad.' },
      ]);
    }
  });
});
