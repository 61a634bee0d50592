import { describe, expect, it } from "vitest";
import { formatDuration } from "@/features/console/format";

describe("formatDuration", () => {
  // Expected texts worked out by hand from the milliseconds.
  it.each([
    [850, "850 ms"],
    [999.4, "999 ms"],
    [999.7, "1.0 s"],
    [12_340, "12.3 s"],
    [59_940, "59.9 s"],
    [59_960, "1 min 0 s"],
    [125_000, "2 min 5 s"],
    [119_600, "2 min 0 s"],
    [179_600, "3 min 0 s"], // was "2 min 60 s"
    [3_599_700, "1 h 0 min"],
    [7_170_000, "2 h 0 min"],
    [7_380_000, "2 h 3 min"],
  ])("%d ms is %s", (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  it("never shows 60 of a unit that carries", () => {
    const sixty: string[] = [];
    for (let ms = 0; ms < 8_000_000; ms += 97.3) if (/\b60 (s|min)$/.test(formatDuration(ms))) sixty.push(`${ms} ms: ${formatDuration(ms)}`);
    expect(sixty).toEqual([]);
  });

  it("shows a dash for nothing", () => {
    expect(formatDuration(null)).toBe("—");
  });
});
