import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseDecimalNumber } from "./decimal-number";

describe("parseDecimalNumber", () => {
  it("reads decimal notation", () => {
    const cases: [string, number][] = [
      ["16", 16],
      ["-8.55", -8.55],
      ["+47.3", 47.3],
      ["007", 7],
      [".5", 0.5],
      ["5.", 5],
      ["1e3", 1000],
      ["-2.5E-2", -0.025],
      ["0", 0],
    ];
    for (const [text, value] of cases) expect(parseDecimalNumber(text), text).toBe(value);
  });
  it("refuses what Number() reads but is no decimal: other bases, Infinity, padding, empty, separators, overflow", () => {
    for (const text of [
      "0x10",
      "0X1f",
      "0o17",
      "0b101",
      "Infinity",
      "-Infinity",
      "NaN",
      " 16",
      "16 ",
      "\t1",
      "",
      " ",
      "1_000",
      "1e400",
      ".",
      "e5",
      "1e",
      "--1",
      "1,5",
    ]) {
      expect(parseDecimalNumber(text), JSON.stringify(text)).toBeNull();
    }
  });
  it("reads back every finite double as JavaScript prints it", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => {
        // String(-0) is "0": compare with ===, for which -0 and 0 are equal.
        expect(parseDecimalNumber(String(d)) === d).toBe(true);
      }),
    );
  });
});
