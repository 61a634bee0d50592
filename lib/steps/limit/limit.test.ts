/** Tests of the `limit` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { runStep, table, R, T } from "@/lib/steps/test-helpers";
import { rows } from "@/lib/steps/test-fixtures";

describe("limit", () => {
  it("limit with a parameter, offset, and rank", async () => {
    const out = await runStep({ type: "limit", source: "t", n: { param: "k" }, offset: 1 }, { t: table(rows) }, "table", {
      parameters: [{ name: "k", type: "integer", default: 2 }],
      params: { k: 2 },
    });
    expect(R(out).map((r) => r.n)).toEqual(["b", "c"]);
    const ranked = await runStep({ type: "rank", source: "t" }, { t: table(rows.slice(0, 2)) }, "table");
    expect(T(ranked)).toEqual({
      kind: "rows",
      columns: ["rank", "n", "v"],
      rows: [
        { rank: 1, n: "a", v: 2 },
        { rank: 2, n: "b", v: null },
      ],
    });
    expect(R(await runStep({ type: "limit", source: "t", n: 0 }, { t: table(rows) }, "table"))).toEqual([]);
  });
});
