/** The one number rule (`readNumber`) and that filters and aggregations agree on caller data. */
import { describe, expect, it } from "vitest";
import { runFlow } from "@/lib/engine/run-flow";
import type { TResolvedInputs } from "@/lib/engine/types";
import { CITIES_IN_AREA } from "@/lib/demo/flows";
import fc from "fast-check";
import { Acc, fieldColumn, readNumber, tableFieldColumn } from "@/lib/steps/aggregations";
import { tableFromRows, type TTable } from "@/lib/steps/dataset";
import { AGG_OPS } from "@/lib/steps/options";
import { box, fs, mustValidate, pt, R, runStep, table } from "@/lib/steps/test-helpers";

describe("readNumber", () => {
  it("reads numbers and decimal text, nothing else", () => {
    expect([5, -1.5, "5000", "12", "1e3"].map(readNumber)).toEqual([5, -1.5, 5000, 12, 1000]);
    const none = [NaN, Infinity, "", "  ", " 12 ", "12 km", "0x10", "0b1", "0o7", "Infinity", true, false, null, undefined, {}, [1]];
    expect(none.map(readNumber)).toEqual(Array(none.length).fill(null));
  });
});

describe("aggregating by column (fieldColumn + addAt)", () => {
  it("gives what aggregating the properties gives, for every op and any values", () => {
    const value = fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constantFrom("12", " 7 ", "x", "", null, undefined, true), fc.constant({}));
    fc.assert(
      fc.property(fc.array(fc.option(fc.dictionary(fc.constantFrom("v", "w", "constructor"), value), { nil: null }), { maxLength: 30 }), (props) => {
        const items = props.map((properties) => ({ properties }));
        const order = items.map((_, i) => (i * 7) % items.length);
        for (const op of AGG_OPS) {
          for (const field of op === "count" ? [undefined, "v", "constructor"] : ["v", "constructor"]) {
            const a = { op, field, as: "out" };
            const byProps = new Acc(a);
            const byColumn = new Acc(a);
            const column = field === undefined ? null : fieldColumn(items, field);
            for (const i of order) {
              byProps.add(items[i]!.properties ?? {});
              byColumn.addAt(column, i);
            }
            expect(byColumn.value()).toEqual(byProps.value());
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it("adds a range of items as adding each does (addRange), over cells and over a column of numbers only", () => {
    fc.assert(
      fc.property(fc.array(fc.double(), { maxLength: 40 }), fc.nat(), fc.nat(), (values, x, y) => {
        const rows = values.map((v) => ({ v }));
        const cells = tableFromRows(["v"], rows);
        // the same values as a layer file's numbers-only column (lib/layers/layer-file)
        const typed: TTable = { ...cells, values: [Float64Array.from(values)] };
        const [from, to] = [Math.min(x, y) % (values.length + 1), Math.max(x, y) % (values.length + 1)].sort((a, b) => a - b) as [number, number];
        for (const op of AGG_OPS) {
          for (const field of op === "count" ? [undefined, "v"] : ["v"]) {
            const a = { op, field, as: "out" };
            const each = new Acc(a);
            for (let i = from; i < to; i++) each.add(rows[i]!);
            for (const t of [cells, typed]) {
              const range = new Acc(a);
              range.addRange(field === undefined ? null : tableFieldColumn(t, field), from, to);
              expect(range.value()).toEqual(each.value());
            }
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it("reads a column of finite numbers as it is, and one with infinities as numbers without them", () => {
    const finite = Float64Array.of(1, NaN, -2.5);
    const column = tableFieldColumn({ kind: "rows", columns: ["v"], values: [finite], length: 3 }, "v");
    expect(column.numbers).toBe(finite);
    expect(column.present).toBeNull();
    const infinite = Float64Array.of(1, Infinity, -Infinity);
    const read = tableFieldColumn({ kind: "rows", columns: ["v"], values: [infinite], length: 3 }, "v");
    expect([...read.numbers]).toEqual([1, NaN, NaN]);
    expect([...infinite]).toEqual([1, Infinity, -Infinity]);
  });

  it("reads an items array once: the same column object for the same array and field", () => {
    const items = [{ properties: { v: 1 } }, { properties: { v: "2" } }];
    expect(fieldColumn(items, "v")).toBe(fieldColumn(items, "v"));
    expect([...fieldColumn(items, "v").numbers]).toEqual([1, 2]);
  });
});

describe("numbers in caller data", () => {
  it("a population sent as text is summed like the filter reads it (cities-in-area)", async () => {
    const flow = mustValidate(CITIES_IN_AREA);
    const cities = fs([
      pt(1, 1, { geonameid: 1, name: "A", country: "X", population: "5000" }),
      pt(2, 2, { geonameid: 2, name: "B", country: "X", population: 7000 }),
      pt(3, 3, { geonameid: 3, name: "C", country: "X", population: "500" }),
      pt(4, 4, { geonameid: 4, name: "D", country: "X", population: "many" }),
    ]);
    const area = { kind: "area", geometry: box(0, 0, 10, 10).geometry } as const;
    const results = await runFlow(flow, { cities, area } as unknown as TResolvedInputs, { min_population: 1000 });
    const summary = results.find((r) => r.key === "summary")!;
    expect(R(summary.data)).toEqual([{ city_count: 2, total_population: 12000 }]);
  });

  it("sum, min, max and mean skip what is no number instead of counting it as 0", async () => {
    const out = await runStep(
      {
        type: "aggregate",
        source: "t",
        aggregations: [
          { op: "sum", field: "v", as: "sum" },
          { op: "min", field: "v", as: "min" },
          { op: "mean", field: "v", as: "mean" },
        ],
      },
      { t: table([{ v: "4" }, { v: true }, { v: "x" }, { v: 2 }, { v: null }]) },
      "table",
    );
    expect(R(out)).toEqual([{ sum: 6, min: 2, mean: 3 }]);
  });
});
