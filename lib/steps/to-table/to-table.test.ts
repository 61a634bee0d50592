/** Tests of the `to_table` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { fs, runStep, T } from "@/lib/steps/test-helpers";
import { cities } from "@/lib/steps/test-fixtures";
import type { TTable } from "@/lib/steps/dataset";

describe("to_table", () => {
  it("to_table drops geometry, with and without columns", async () => {
    const t = await runStep({ type: "to_table", source: "c", columns: ["name", { from: "population", as: "pop" }] }, { c: fs(cities.slice(0, 2)) }, "table");
    expect(T(t)).toEqual({
      kind: "rows",
      columns: ["name", "pop"],
      rows: [
        { name: "Zürich Nord", pop: 100 },
        { name: "B", pop: 300 },
      ],
    });
    const all = (await runStep({ type: "to_table", source: "c" }, { c: fs(cities.slice(0, 2)) }, "table")) as TTable;
    expect(all.columns).toEqual(["name", "population", "max pop"]);
  });
});
