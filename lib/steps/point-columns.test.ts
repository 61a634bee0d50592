/** Point features held by column (lib/steps/point-columns.ts): the same features, and the same bytes from the writers, as the features themselves. */
import { describe, expect, it, vi } from "vitest";
import { encodeGeoJson } from "@/lib/formats/geojson/write";
import { readSpill, spillFrames } from "@/lib/runs/result-spill";
import { itemPosition, setItemPosition, type TFeature, type TFeatureSet } from "@/lib/steps/dataset";
import { pick, pickColumns } from "@/lib/steps/items";
import {
  KeptRows,
  featureCount,
  pointColumnsOf,
  pointFeatures,
  pointRowsOf,
  rowCount,
  takePoints,
  takePointsOf,
  viewPoints,
  type TPointColumns,
} from "@/lib/steps/point-columns";
import { asPointColumns, pt } from "@/lib/steps/test-helpers";

/** Points with awkward cells: null, undefined, a bigint, a nested value, "__proto__" and an integer-like key, -0 and fractional coordinates. */
function sample(): TFeature[] {
  const features = [
    pt(8.480177639678004, 47.32577688834568, { name: "Zürich", n: 1, "7": "seven", nested: { a: [1, 2] } }),
    pt(-0, 0.5, { name: null, n: undefined, "7": "", nested: null }),
    pt(179.99999999999997, -89.1, { name: 'a "quoted"\nname', n: 2n ** 60n, "7": null, nested: [] }),
  ];
  for (const f of features) Object.defineProperty(f.properties, "__proto__", { value: { x: 1 }, writable: true, enumerable: true, configurable: true });
  features.forEach((f, i) => setItemPosition(f, 10 - i));
  return features;
}

async function bytes(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

describe("point features held by column", () => {
  it("are the features they were made from, made once when first read, with their layer positions", () => {
    const features = sample();
    const cols = asPointColumns(features)!;
    const set = pointFeatures(cols);
    const made = vi.spyOn(set as { features: TFeature[] }, "features", "get");
    expect(featureCount(set)).toBe(3);
    expect(made).not.toHaveBeenCalled();
    made.mockRestore();
    expect(set).toStrictEqual({ kind: "features", features });
    expect(set.features).toBe(set.features);
    expect(set.features.map((f) => itemPosition(f))).toEqual([10, 9, 8]);
    expect(Object.keys(set.features[0]!.properties!)).toEqual(Object.keys(features[0]!.properties!));
    expect(pointColumnsOf(set)).toBe(cols);
    // a spread or a clone is a plain set
    expect(pointColumnsOf({ ...set })).toBeUndefined();
    expect(structuredClone(set)).toStrictEqual({ kind: "features", features: structuredClone(features) });
    // features set anew: the columns are no longer theirs
    set.features = features.slice(0, 1);
    expect(pointColumnsOf(set)).toBeUndefined();
    expect(featureCount(set)).toBe(1);
  });

  it("take, and take from several parts, as the features would", () => {
    const features = sample();
    const cols = asPointColumns(features)!;
    const feats = (c: TPointColumns | undefined) => pointFeatures(c!).features;
    expect(feats(takePoints(cols, [2, 0]))).toStrictEqual([features[2], features[0]]);
    expect(feats(takePoints(cols, [2, 0])).map((f) => itemPosition(f))).toEqual([8, 10]);
    expect(feats(takePoints(cols, [1, 2]))).toStrictEqual(features.slice(1));
    const whole = (c: TPointColumns) => ({ cols: c, rows: null });
    const parts = [[0], [1], [2]].map((rows) => whole(takePoints(cols, rows)));
    // the same features as views: [2, 1] and [0] of the columns
    const views = [
      { cols, rows: Uint32Array.of(2, 1) },
      { cols, rows: Uint32Array.of(0) },
    ];
    const everyOrder = [[0, 1, 2], [2, 0, 1], [1], [], [2, 2, 0]];
    for (const order of everyOrder) {
      const taken = feats(takePointsOf(parts, order));
      expect(taken).toStrictEqual(order.map((i) => features[i]));
      expect(taken.map((f) => itemPosition(f))).toEqual(order.map((i) => itemPosition(features[i]!)));
      expect(feats(takePointsOf(views, order))).toStrictEqual(order.map((i) => features[[2, 1, 0][i]!]));
    }
    const renamed = { ...cols, props: { ...cols.props, columns: cols.props.columns.map((c) => `${c}_`) } };
    expect(takePointsOf([whole(cols), whole(renamed)], [0])).toBeUndefined();
  });

  it("hold some rows of their columns as a view, which any other reader gets as columns of their own", async () => {
    const features = sample();
    const cols = asPointColumns(features)!;
    const set = pointFeatures(cols, Uint32Array.of(2, 0));
    expect(featureCount(set)).toBe(2);
    expect(pointRowsOf(set)).toEqual({ cols, rows: Uint32Array.of(2, 0) });
    // taken once, then kept; the view's columns stay as they were
    const taken = pointColumnsOf(set)!;
    expect(taken).toBe(pointColumnsOf(set));
    expect(taken.points).toEqual(Float64Array.of(cols.points[4]!, cols.points[5]!, cols.points[0]!, cols.points[1]!));
    expect(pointRowsOf(set)!.cols).toBe(cols);
    expect(set.features).toStrictEqual([features[2], features[0]]);
    expect(set.features.map((f) => itemPosition(f))).toEqual([8, 10]);
    // the writers read it as the features it holds
    const text = async (s: TFeatureSet) => Buffer.from((await encodeGeoJson(s)).body).toString();
    expect(await text(pointFeatures(cols, Uint32Array.of(2, 0)))).toBe(await text({ kind: "features", features: [features[2]!, features[0]!] }));
  });

  it("are viewed while they hold at least a quarter of their columns' rows, else taken", () => {
    const features = Array.from({ length: 8 }, (_, i) => pt(i, i, { n: i }));
    const cols = asPointColumns(features)!;
    expect(pointRowsOf(viewPoints(cols, Uint32Array.of(1, 5)))).toEqual({ cols, rows: Uint32Array.of(1, 5) });
    expect(pointRowsOf(viewPoints(cols, null))).toEqual({ cols, rows: null });
    const sparse = pointRowsOf(viewPoints(cols, Uint32Array.of(5)))!;
    expect(sparse.rows).toBeNull();
    expect(sparse.cols.points).toEqual(Float64Array.of(5, 5));
    expect(viewPoints(cols, Uint32Array.of(5)).features).toStrictEqual([features[5]]);
  });

  it("keep the rows a test keeps: the set itself when all, a view of the same columns otherwise", () => {
    const features = Array.from({ length: 8 }, (_, i) => pt(i, i, { n: i }));
    const cols = asPointColumns(features)!;
    const keepIf = (set: TFeatureSet, test: (i: number) => boolean) => {
      const view = pointRowsOf(set)!;
      const kept = new KeptRows(view);
      for (let i = 0; i < rowCount(view); i++) {
        if (test(i)) kept.keep(i);
        else kept.drop(i);
      }
      return kept.setOf(set);
    };
    const all = pointFeatures(cols);
    expect(keepIf(all, () => true)).toBe(all);
    const odd = keepIf(all, (i) => i % 2 === 1);
    expect(pointRowsOf(odd)).toEqual({ cols, rows: Uint32Array.of(1, 3, 5, 7) });
    // a view of a view: rows of the same columns
    const late = keepIf(odd, (i) => i >= 2);
    expect(pointRowsOf(late)).toEqual({ cols, rows: Uint32Array.of(5, 7) });
    expect(late.features).toStrictEqual([features[5], features[7]]);
    expect(keepIf(odd, () => false).features).toEqual([]);
  });

  it("write the same GeoJSON, and a lossless copy that reads back as the same features", async () => {
    const features = sample();
    const held = pointFeatures(asPointColumns(features)!);
    const made = vi.spyOn(held as { features: TFeature[] }, "features", "get");
    const plain: TFeatureSet = { kind: "features", features };
    const text = async (set: TFeatureSet) => Buffer.from((await encodeGeoJson(set)).body).toString();
    expect(await text(held)).toBe(await text(plain));
    const result = (data: TFeatureSet) => ({ key: "r", kind: "layer" as const, data });
    // the copy of points held by column keeps their properties by column (result-spill.ts, layout 3)
    const back = async (set: TFeatureSet) => {
      const copy = await bytes(spillFrames(result(set)));
      async function* chunks() {
        yield copy;
      }
      const r = await readSpill("r", chunks());
      return r.kind === "layer" ? r.data.features : [];
    };
    expect(await back(held)).toStrictEqual(await back(plain));
    expect(await back(held)).toStrictEqual(features.map((f) => ({ ...f, properties: { ...f.properties } })));
    expect(made).not.toHaveBeenCalled(); // written from the columns
  });

  it("pick fields by column as `pick` does by record, except names of a plain object's own members", () => {
    const features = sample();
    const cols = asPointColumns(features)!;
    const specs = ["n", { from: "name", as: "label" }, "missing", { from: "7", as: "n" }, "nested"];
    const picked = pickColumns(cols.props, specs)!;
    const byColumn = pointFeatures({ ...cols, props: picked }).features.map((f) => f.properties);
    expect(byColumn).toStrictEqual(features.map((f) => pick(f.properties!, specs)));
    expect(pickColumns(cols.props, ["__proto__"])).toBeUndefined();
    expect(pickColumns(cols.props, [{ from: "name", as: "constructor" }])).toBeUndefined();
    expect(pickColumns(cols.props, ["toString"])).toBeUndefined();
  });
});
