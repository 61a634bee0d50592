/** Tests of the `distance_pairs` step, on small inputs whose answers are worked out by hand. */
import { describe, expect, it } from "vitest";
import { fs, pt, runStep } from "@/lib/steps/test-helpers";
import { DEG_KM, nullGeom } from "@/lib/steps/test-fixtures";
import { tableRows } from "@/lib/steps/dataset";
import fc from "fast-check";
import { encodeCsv } from "@/lib/formats/csv";
import type { TFieldSpec } from "@/lib/steps/options";

describe("distance_pairs", () => {
  it("one row per pair within max_km, nearest first per source, with the chosen fields", async () => {
    // Along a meridian 1° is DEG_KM: targets at 0.5° (55.6 km), 1° (111.2 km) and 3° (333.6 km) from p1.
    const sources = fs([pt(0, 0, { id: "p1" }), nullGeom({ id: "none" }), pt(0, 10, { id: "far" })]);
    const targets = fs([pt(0, 1, { name: "one" }), pt(0, 3, { name: "three" }), pt(0, 0.5, { name: "half" })]);
    const out = await runStep(
      {
        type: "distance_pairs",
        source: "src",
        target: "t",
        max_km: 200,
        source_fields: [{ from: "id", as: "place" }],
        target_fields: ["name"],
        distance_field: "km",
      },
      { src: sources, t: targets },
      "table",
    );
    expect(out.kind).toBe("rows");
    if (out.kind !== "rows") return;
    expect(out.columns).toEqual(["place", "name", "km"]);
    expect(out.rows.map((r) => [r.place, r.name])).toEqual([
      ["p1", "half"],
      ["p1", "one"],
    ]);
    expect(out.rows[0].km as number).toBeCloseTo(0.5 * DEG_KM, 6);
    expect(out.rows[1].km as number).toBeCloseTo(DEG_KM, 6);
    // kept as pairs, made into rows as they are read (lib/steps/dataset.ts lazyTable): the same rows one at a time
    const one = tableRows(out);
    expect(one.count).toBe(2);
    expect([one.rowAt(0), one.rowAt(1)]).toEqual(out.rows);
  });
});

describe("distance_pairs rows in the CSV writer", () => {
  // The writer reads the pairs as gathered columns (and keeps the targets' fields with the
  // target list, lib/formats/csv.ts): its bytes must be those of the rows themselves.
  // (`__proto__` as a name: such rows are made by `pick` and written from the rows, below)
  const name = fc.constantFrom("id", "name", "n", "q,uote", "constructor", "x");
  const spec: fc.Arbitrary<TFieldSpec> = fc.oneof(name, fc.record({ from: name, as: name }));
  const value = fc.oneof(
    fc.string(),
    fc.constantFrom("Zürich", 'say "hi"', "a,b", "line\r\nbreak"),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
  );
  const propsOf = fc.dictionary(fc.constantFrom("id", "name", "n", "q,uote", "x"), value);
  const place = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), propsOf);

  it("writes what the rows hold, on random fields and values, twice over the same targets", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(spec, { maxLength: 3 }),
        fc.array(spec, { maxLength: 4 }),
        fc.constantFrom("km", "id", "name"),
        fc.array(place, { maxLength: 12 }),
        fc.array(place, { minLength: 1, maxLength: 8 }),
        fc.array(place, { minLength: 1, maxLength: 8 }),
        async (source_fields, target_fields, distance_field, targets, first, second) => {
          const t = fs(targets.map(([x, y, p]) => pt(x, y, p)));
          for (const sources of [first, second]) {
            const step = { type: "distance_pairs", source: "src", target: "tgt", max_km: 200, source_fields, target_fields, distance_field };
            const out = await runStep(step, { src: fs(sources.map(([x, y, p]) => pt(x, y, p))), tgt: t }, "table");
            if (out.kind !== "rows") throw new Error("not a table");
            const gathered = await encodeCsv(out);
            const fromRows = await encodeCsv({ kind: "rows", columns: out.columns, rows: out.rows });
            expect(new TextDecoder().decode(gathered.body)).toBe(new TextDecoder().decode(fromRows.body));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it("has no gathered columns where a field is named __proto__ (its rows are made by pick)", async () => {
    const step = {
      type: "distance_pairs",
      source: "src",
      target: "tgt",
      max_km: 200,
      source_fields: [{ from: "id", as: "__proto__" }],
      target_fields: ["name"],
    };
    const out = await runStep(step, { src: fs([pt(0, 0, { id: 1 })]), tgt: fs([pt(0, 0.1, { name: "a" })]) }, "table");
    if (out.kind !== "rows") throw new Error("not a table");
    expect(tableRows(out).gathers).toBeUndefined();
    expect(new TextDecoder().decode((await encodeCsv(out)).body)).toBe(
      new TextDecoder().decode((await encodeCsv({ kind: "rows", columns: out.columns, rows: out.rows })).body),
    );
  });
});
