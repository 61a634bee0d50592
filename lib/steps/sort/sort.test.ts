/** Tests of the `sort` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { runStep, table, R } from "@/lib/steps/test-helpers";
import { rows, rowsEdge } from "@/lib/steps/test-fixtures";

describe("sort", () => {
  it("sort is stable, nulls last in both orders", async () => {
    const asc = await runStep({ type: "sort", source: "t", field: "v" }, { t: table(rows) }, "table");
    expect(R(asc).map((r) => r.n)).toEqual(["a", "d", "c", "b"]);
    const desc = await runStep({ type: "sort", source: "t", field: "v", order: "desc" }, { t: table(rows) }, "table");
    expect(R(desc).map((r) => r.n)).toEqual(["c", "a", "d", "b"]);
    expect(rows[0].n).toBe("a");
  });
});

describe("sort edge cases: attribute steps with unicode, spaces, nulls and empty input", () => {
  it("sort orders unicode text by code points and puts nulls last; limit past the end is fine", async () => {
    const s = await runStep({ type: "sort", source: "t", field: "Stadt name" }, { t: table(rowsEdge) }, "table");
    expect(R(s).map((r) => r["Stadt name"])).toEqual(["Genève", "Zürich", "東京"]);
    const n = await runStep({ type: "sort", source: "t", field: "Einw. gesamt", order: "desc" }, { t: table(rowsEdge) }, "table");
    expect(R(n).map((r) => r["Einw. gesamt"])).toEqual([9000, 400, null]);
    expect(R(await runStep({ type: "limit", source: "t", n: 10, offset: 2 }, { t: table(rowsEdge) }, "table"))).toHaveLength(1);
  });
});
