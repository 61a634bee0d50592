import { describe, expect, it } from "vitest";
import { ColumnTypeInference, ownValue, scalarToText, toColumnValue } from "./column-types";
import { Utf8Arena } from "./parquet/write";

/** The type `ColumnTypeInference` infers from all of `values`. */
function inferColumnType(values: unknown[]): string {
  const inference = new ColumnTypeInference();
  for (const value of values) inference.add(value);
  return inference.type();
}

describe("inferColumnType", () => {
  it("booleans -> boolean, nulls ignored", () => {
    expect(inferColumnType([true, null, false, undefined])).toBe("boolean");
  });
  it("integers of any size -> int64 (never int32, so a column keeps its type from run to run)", () => {
    expect(inferColumnType([0, -1, 2 ** 31 - 1, -(2 ** 31), null])).toBe("int64");
    expect(inferColumnType([1, 2 ** 31])).toBe("int64");
    expect(inferColumnType([-(2 ** 31) - 1])).toBe("int64");
    expect(inferColumnType([Number.MAX_SAFE_INTEGER, 2 ** 62])).toBe("int64");
    expect(inferColumnType([5n, 2n ** 40n])).toBe("int64");
  });
  it("integers beyond int64, fractions, NaN, Infinity -> double", () => {
    expect(inferColumnType([1, 2 ** 63])).toBe("double");
    expect(inferColumnType([1, 1e300])).toBe("double");
    expect(inferColumnType([1, 2.5])).toBe("double");
    expect(inferColumnType([1, NaN])).toBe("double");
    expect(inferColumnType([Infinity])).toBe("double");
    expect(inferColumnType([2n ** 64n])).toBe("double");
  });
  it("strings -> string; all-null or empty -> string", () => {
    expect(inferColumnType(["a", null])).toBe("string");
    expect(inferColumnType([null, undefined])).toBe("string");
    expect(inferColumnType([])).toBe("string");
  });
  it("mixed kinds and objects fall back to string", () => {
    expect(inferColumnType([1, "a"])).toBe("string");
    expect(inferColumnType([true, 1])).toBe("string");
    expect(inferColumnType([{ a: 1 }])).toBe("string");
    expect(inferColumnType([[1, 2], 3])).toBe("string");
    expect(inferColumnType([new Date(0)])).toBe("string");
  });
});

describe("scalarToText / toColumnValue / ownValue", () => {
  it("renders every kind", () => {
    expect(scalarToText(null)).toBeNull();
    expect(scalarToText(undefined)).toBeNull();
    expect(scalarToText("x")).toBe("x");
    expect(scalarToText(0.1)).toBe("0.1");
    expect(scalarToText(1e21)).toBe("1e+21");
    expect(scalarToText(true)).toBe("true");
    expect(scalarToText(12n)).toBe("12");
    expect(scalarToText(new Date(Date.UTC(2024, 0, 2)))).toBe("2024-01-02T00:00:00.000Z");
    expect(scalarToText({ a: [1, 2n] })).toBe('{"a":[1,"2"]}');
  });
  it("converts per column type", () => {
    expect(toColumnValue("int64", 2 ** 40)).toBe(2n ** 40n);
    expect(toColumnValue("int64", 7n)).toBe(7n);
    expect(toColumnValue("double", 3n)).toBe(3);
    expect(toColumnValue("string", 3)).toBe("3");
    expect(toColumnValue("int64", null)).toBeNull();
    expect(toColumnValue("boolean", undefined)).toBeNull();
  });
  it("reads own properties only", () => {
    expect(ownValue({}, "constructor")).toBeUndefined();
    expect(ownValue({ constructor: 1 }, "constructor")).toBe(1);
    expect(ownValue(null, "a")).toBeUndefined();
  });
});

describe("Utf8Arena", () => {
  it("hands out one view per distinct text within a row group, and new ones after startGroup", () => {
    const arena = new Utf8Arena();
    arena.startGroup();
    const first = arena.bytes("Zürich");
    expect(arena.bytes("Zürich")).toBe(first);
    expect(Buffer.from(first).toString("utf8")).toBe("Zürich");
    arena.startGroup();
    const next = arena.bytes("Zürich");
    expect(next).not.toBe(first);
    expect(Buffer.from(next).equals(Buffer.from(first))).toBe(true);
  });
});
