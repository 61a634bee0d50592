import { describe, expect, it } from "vitest";
import { attributeColumns, formatValue } from "./attribute-columns";

describe("attribute table columns", () => {
  it("lists properties in order of first appearance with the type of their non-null values", () => {
    const cols = attributeColumns([
      { properties: { name: "Bern", population: 134000, capital: true, tags: null } },
      { properties: { name: "Basel", population: null, extra: { a: 1 }, tags: null } },
      { properties: { name: 7, population: 177000 } },
      { properties: null },
    ]);
    expect(cols).toEqual([
      { name: "name", type: "mixed" },
      { name: "population", type: "number" },
      { name: "capital", type: "yes/no" },
      { name: "tags", type: "empty" },
      { name: "extra", type: "object" },
    ]);
  });

  it("shows values as text: nothing for null, JSON for objects, numbers as written", () => {
    expect([null, undefined, 2657896, 0.5, "x", false, { a: [1] }].map(formatValue)).toEqual(["", "", "2657896", "0.5", "x", "false", '{"a":[1]}']);
  });
});
