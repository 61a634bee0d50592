import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TFeature, TFeatureSet } from "@/lib/engine/types";
import { itemPosition } from "@/lib/steps/dataset";
import { pointColumnsOf, pointRowsOf, type TPointRows } from "@/lib/steps/point-columns";
import { toArrayBuffer } from "@/lib/formats/test-support";
import { openLayerFile, readLayerBatches, rowGroupsFor, type TLayerFile } from "./read-layer-file";
import { createRowGroupCache } from "./row-group-cache";
import { syntheticPoints } from "@/bench/synthetic-points";
import { memoryFile, tempDir, writeToBytes } from "./test-support";
import type { TBbox } from "./types";

const COUNT = 20_000;
const ROW_GROUP_ROWS = 256;
let points: TFeature[];
let bytes: Uint8Array;
let tmp: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  tmp = await tempDir();
  points = [...syntheticPoints(COUNT, 11)];
  // a few features without geometry, and a polygon across many cells
  points.push({ type: "Feature", geometry: null, properties: { id: COUNT, city: "nowhere", country: "", value: 0 } });
  points.push({
    type: "Feature",
    geometry: {
      type: "Polygon",
      coordinates: [
        [
          [-10, 35],
          [30, 35],
          [30, 60],
          [-10, 60],
          [-10, 35],
        ],
      ],
    },
    properties: { id: COUNT + 1, city: "Europe", country: "", value: 1 },
  });
  ({ bytes } = await writeToBytes(points, { kind: "features", tmpDir: tmp.dir, rowGroupRows: ROW_GROUP_ROWS }));
});
afterAll(async () => {
  await tmp.remove();
});

/** Ids of the input features whose bbox meets `box` (edges inclusive, west > east across the antimeridian), by brute force. */
function bruteForce(box: TBbox): Set<number> {
  const [w, s, e, n] = box;
  const ids = new Set<number>();
  for (const f of points) {
    if (!f.geometry) continue;
    const coords = f.geometry.type === "Point" ? [f.geometry.coordinates] : (f.geometry as { coordinates: number[][][] }).coordinates[0];
    const xs = coords.map((c) => c[0]);
    const ys = coords.map((c) => c[1]);
    const [xmin, xmax, ymin, ymax] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const inX = w <= e ? xmin <= e && xmax >= w : xmax >= w || xmin <= e;
    if (inX && ymin <= n && ymax >= s) ids.add(f.properties.id as number);
  }
  return ids;
}

async function readAll(file: TLayerFile, box: TBbox | null, columns?: string[]): Promise<{ features: TFeature[]; batches: number }> {
  const features: TFeature[] = [];
  let batches = 0;
  for await (const batch of readLayerBatches(file, box, { columns })) {
    features.push(...(batch as TFeatureSet).features);
    batches++;
  }
  return { features, batches };
}

describe("openLayerFile", () => {
  it("describes the file from its footer: kind, counts, bbox, columns, row groups with byte ranges and covering bboxes", async () => {
    const file = await openLayerFile(memoryFile(bytes));
    expect(file).toMatchObject({ kind: "features", itemCount: COUNT + 2, geometryTypes: ["Point", "Polygon"], sizeBytes: bytes.byteLength });
    expect(file.columns).toEqual([
      { name: "id", type: "int64" },
      { name: "city", type: "string" },
      { name: "country", type: "string" },
      { name: "value", type: "double" },
    ]);
    expect(file.rowGroups).toHaveLength(Math.ceil((COUNT + 2) / ROW_GROUP_ROWS));
    expect(file.rowGroups.reduce((n, g) => n + g.rowCount, 0)).toBe(COUNT + 2);
    // the byte ranges tile the data part of the file in order
    for (let i = 1; i < file.rowGroups.length; i++) expect(file.rowGroups[i].byteStart).toBe(file.rowGroups[i - 1].byteEnd);
    // each row group's bbox covers exactly its rows' covering values (read independently with hyparquet)
    const raw = await parquetReadObjects({ file: toArrayBuffer(bytes), columns: ["bbox"] });
    for (const group of file.rowGroups) {
      const boxes = raw.slice(group.rowStart, group.rowStart + group.rowCount).flatMap((r) => (r.bbox ? [r.bbox as Record<string, number>] : []));
      if (boxes.length === 0) expect(group.bbox).toBeNull();
      else
        expect(group.bbox).toEqual([
          Math.min(...boxes.map((b) => b.xmin)),
          Math.min(...boxes.map((b) => b.ymin)),
          Math.max(...boxes.map((b) => b.xmax)),
          Math.max(...boxes.map((b) => b.ymax)),
        ]);
    }
    // the footer only: far less than the file
    expect(file.bytesRead).toBeLessThan(bytes.byteLength / 2);
  });
});

describe("readLayerBatches", () => {
  it("gives each feature its position in the input, which the file keeps apart from its Hilbert order", async () => {
    // Points given west to east and south to north alternately: the Hilbert order differs from the input's.
    const input: TFeature[] = Array.from({ length: 500 }, (_, i) => ({
      type: "Feature",
      geometry: { type: "Point", coordinates: [((i * 37) % 360) - 180, ((i * 53) % 170) - 85] },
      properties: { i },
    }));
    const written = await writeToBytes(input, { kind: "features", tmpDir: tmp.dir, rowGroupRows: 64 });
    const file = await openLayerFile(memoryFile(written.bytes));
    const read: TFeature[] = [];
    for await (const batch of readLayerBatches(file, null)) read.push(...(batch as TFeatureSet).features);
    expect(read.map((f) => f.properties.i)).not.toEqual(input.map((f) => f.properties.i));
    for (const f of read) expect(itemPosition(f)).toBe(f.properties.i);
    expect(Object.keys(read[0]!.properties)).toEqual(["i"]);
  });

  it("returns every feature once, in file order, for no box", async () => {
    const file = await openLayerFile(memoryFile(bytes));
    const { features, batches } = await readAll(file, null);
    expect(batches).toBe(file.rowGroups.length);
    expect(features.map((f) => f.properties.id).sort((a, b) => (a as number) - (b as number))).toEqual(points.map((f) => f.properties.id));
    const raw = await parquetReadObjects({ file: toArrayBuffer(bytes), columns: ["id"] });
    expect(features.map((f) => f.properties.id)).toEqual(raw.map((r) => Number(r.id)));
  });

  it("returns the features whose bbox meets the box and skips row groups (property, against brute force)", async () => {
    const file = await openLayerFile(memoryFile(bytes));
    const box = fc
      .tuple(fc.double({ min: -180, max: 180, noNaN: true }), fc.double({ min: -90, max: 89, noNaN: true }), fc.double({ min: 0.01, max: 20, noNaN: true }))
      .map(([w, s, size]): TBbox => [w, s, w + size > 180 ? w + size - 360 : w + size, Math.min(90, s + size)]);
    await fc.assert(
      fc.asyncProperty(box, async (b) => {
        const expected = bruteForce(b);
        const { features, batches } = await readAll(file, b);
        expect(new Set(features.map((f) => f.properties.id as number))).toEqual(expected);
        expect(features.length).toBe(expected.size);
        // what is read is exactly the row groups whose bbox meets the box
        expect(batches).toBe(rowGroupsFor(file, b).length);
      }),
      { numRuns: 40 },
    );
  });

  it("reads only a few row groups for a 1-degree box around Paris, across the antimeridian as well", async () => {
    const file = await openLayerFile(memoryFile(bytes));
    const paris: TBbox = [2, 48.5, 3, 49.5];
    const { features, batches } = await readAll(file, paris);
    const expected = bruteForce(paris);
    expect(expected.size).toBeGreaterThan(10);
    const got = new Set(features.map((f) => f.properties.id));
    expect([...expected].every((id) => got.has(id))).toBe(true);
    // the big polygon's row group is always read; the points of Paris fill a few more
    expect(batches).toBeLessThan(file.rowGroups.length / 10);

    const fiji: TBbox = [177, -20, -179, -15];
    const aroundFiji = bruteForce(fiji);
    const read = new Set((await readAll(file, fiji)).features.map((f) => f.properties.id));
    expect([...aroundFiji].every((id) => read.has(id))).toBe(true);
  });

  it("decodes properties (integers as numbers) and geometry, and reads only the columns asked for", async () => {
    const file = await openLayerFile(memoryFile(bytes));
    const byId = new Map(points.map((f) => [f.properties.id, f]));
    const { features } = await readAll(file, [2, 48.5, 3, 49.5]);
    for (const f of features) expect(f).toEqual(byId.get(f.properties.id)!);
    const before = file.bytesRead;
    const { features: onlyIds } = await readAll(file, [2, 48.5, 3, 49.5], ["id", "unknown"]);
    expect(onlyIds.map((f) => Object.keys(f.properties))).toEqual(onlyIds.map(() => ["id"]));
    expect(onlyIds.map((f) => f.geometry)).toEqual(features.map((f) => f.geometry));
    // fewer columns, fewer bytes
    expect(file.bytesRead - before).toBeLessThan(before);
  });

  it("holds a property column of numbers only as a Float64Array, any other as its cells, with the same features", async () => {
    const mixed: TFeature[] = Array.from({ length: 600 }, (_, i) => ({
      type: "Feature",
      geometry: { type: "Point", coordinates: [i / 100, -i / 100] },
      properties: { n: i % 7 === 0 ? -0 : i * 1.5, flag: i % 2 === 0, some: i === 450 ? null : i, label: `p${i}` },
    }));
    const { bytes: b } = await writeToBytes(mixed, { kind: "features", tmpDir: tmp.dir, rowGroupRows: ROW_GROUP_ROWS });
    const file = await openLayerFile(memoryFile(b));
    const kinds = new Set<string>();
    for await (const batch of readLayerBatches(file, null)) {
      const cols = pointColumnsOf(batch as TFeatureSet)!;
      kinds.add(cols.props.columns.map((c, i) => `${c}:${cols.props.values[i] instanceof Float64Array ? "f64" : "cells"}`).join(","));
    }
    // `some` has a null in one row group only: that group keeps its cells, the others are numbers
    expect([...kinds].sort()).toEqual(["n:f64,flag:cells,some:cells,label:cells", "n:f64,flag:cells,some:f64,label:cells"]);
    const { features } = await readAll(file, null);
    const byLabel = new Map(features.map((f) => [f.properties.label, f]));
    for (const f of mixed) expect(byLabel.get(f.properties.label)).toStrictEqual(f);
    expect(Object.is(byLabel.get("p0")!.properties.n, -0)).toBe(true);
  });

  it("decodes each row group once with a cache: a repeated read fetches nothing, another cache key does", async () => {
    const cache = createRowGroupCache(64 * 1024 * 1024);
    const source = memoryFile(bytes);
    const box: TBbox = [-75, 40, -73, 41.5];
    const first = await openLayerFile(source, { cacheKey: "layer-a@1", cache });
    const footer = first.bytesRead;
    const a = await readAll(first, box);
    expect(first.bytesRead).toBeGreaterThan(footer);
    expect(cache.size).toBe(a.batches);
    expect(cache.bytes).toBeGreaterThan(0);

    const again = await openLayerFile(source, { cacheKey: "layer-a@1", cache });
    const b = await readAll(again, box);
    expect(again.bytesRead).toBe(footer);
    expect(b.features).toEqual(a.features);
    // the cache keeps columns: every read makes its own items, with their positions
    expect(b.features[0]).not.toBe(a.features[0]);
    expect(b.features[0]!.geometry).not.toBe(a.features[0]!.geometry);
    expect(b.features.map(itemPosition)).toEqual(a.features.map(itemPosition));

    const other = await openLayerFile(source, { cacheKey: "layer-a@2", cache });
    await readAll(other, box);
    expect(other.bytesRead).toBeGreaterThan(footer);

    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it("reads points held by column as views of the cached columns: no copy, the same columns for every read", async () => {
    const cache = createRowGroupCache(64 * 1024 * 1024);
    const source = memoryFile(bytes);
    const views = async () => {
      const file = await openLayerFile(source, { cacheKey: "layer-v@1", cache });
      const out: (TPointRows | undefined)[] = [];
      for await (const batch of readLayerBatches(file, null)) out.push(pointRowsOf(batch as TFeatureSet));
      return out;
    };
    const first = await views();
    const second = await views();
    expect(first.filter(Boolean).length).toBeGreaterThan(0);
    first.forEach((view, i) => {
      if (!view) return;
      expect(view.rows).toBeNull();
      expect(second[i]!.cols.points).toBe(view.cols.points);
      expect(second[i]!.cols.props.values).toEqual(view.cols.props.values);
    });
  });

  it("rejects with the signal's reason once aborted", async () => {
    const file = await openLayerFile(memoryFile(bytes));
    const controller = new AbortController();
    const reason = new Error("stop");
    const read = (async () => {
      for await (const batch of readLayerBatches(file, null, { signal: controller.signal })) {
        expect((batch as TFeatureSet).features.length).toBeGreaterThan(0);
        controller.abort(reason);
      }
    })();
    await expect(read).rejects.toBe(reason);
  });
});

/** An independent reader: pyarrow (the Arrow C++ Parquet reader), when this machine has it. */
describe("feature members", () => {
  // ids of both kinds (1 and "1" apart), some features without one, bboxes on some, and a
  // property with the members column's name
  const withMembers: TFeature[] = Array.from({ length: 3_000 }, (_, i) => {
    const x = -180 + ((i * 137) % 360);
    const y = -80 + ((i * 53) % 160);
    const feature: TFeature = { type: "Feature", geometry: { type: "Point", coordinates: [x, y] }, properties: { n: i, feature_members: `p${i}` } };
    if (i % 3 === 0) feature.id = i;
    if (i % 3 === 1) feature.id = String(i - 1);
    if (i % 7 === 0) feature.bbox = [x, y, x, y];
    return feature;
  });
  const expected = (f: TFeature) => ({ id: f.id, bbox: f.bbox, properties: f.properties, geometry: f.geometry });
  const seen = (f: TFeature) => ({ id: f.id, bbox: f.bbox, properties: f.properties, geometry: f.geometry });

  it("gives each feature back its id (string or number) and bbox members, by a box read too, and renames a clashing property", async () => {
    const { bytes: b } = await writeToBytes(withMembers, { kind: "features", tmpDir: tmp.dir, rowGroupRows: ROW_GROUP_ROWS });
    const metadata = parquetMetadata(toArrayBuffer(b));
    expect(metadata.schema.map((e) => e.name)).toContain("feature_members_1");
    const file = await openLayerFile(memoryFile(b), { cacheKey: "members", cache: createRowGroupCache(64 << 20) });
    expect(file.columns.map((c) => c.name)).toEqual(["n", "feature_members"]);
    for (const box of [null, [0, 0, 40, 40] as TBbox]) {
      const { features } = await readAll(file, box);
      const byN = new Map(features.map((f) => [f.properties.n as number, f]));
      const wanted = withMembers.filter(
        (f) => box === null || (f.geometry as { coordinates: number[] }).coordinates.every((c, k) => c >= box[k]! && c <= box[k + 2]!),
      );
      expect(wanted.length).toBeGreaterThan(10);
      expect(features.length).toBe(wanted.length);
      for (const f of wanted) {
        const got = byN.get(f.properties.n as number)!;
        expect(seen(got)).toEqual(expected(f));
        // a feature without members has no such key at all
        expect([Object.hasOwn(got, "id"), Object.hasOwn(got, "bbox")]).toEqual([Object.hasOwn(f, "id"), Object.hasOwn(f, "bbox")]);
      }
    }
    // read again from the cache: the same members, and a bbox that is the feature's own array
    const first = (await readAll(file, null)).features.find((f) => f.properties.n === 0)!;
    first.bbox![0] = 999;
    const again = (await readAll(file, null)).features.find((f) => f.properties.n === 0)!;
    expect(again.bbox).toEqual(withMembers[0]!.bbox);
    expect(again.id).toBe(0);
  });

  it("writes no members column for a layer whose features have none, which keeps its points by column", async () => {
    const plain = withMembers.map(({ type, geometry, properties }) => ({ type, geometry, properties }));
    const { bytes: b } = await writeToBytes(plain, { kind: "features", tmpDir: tmp.dir, rowGroupRows: ROW_GROUP_ROWS });
    const names = parquetMetadata(toArrayBuffer(b)).schema.map((e) => e.name);
    expect(names).toEqual(["root", "n", "feature_members", "geometry", "bbox", "xmin", "ymin", "xmax", "ymax", "input_position"]);
    const file = await openLayerFile(memoryFile(b));
    for await (const batch of readLayerBatches(file, null)) expect(pointColumnsOf(batch as TFeatureSet)).toBeDefined();
    const { features } = await readAll(file, null);
    expect(features.some((f) => Object.hasOwn(f, "id") || Object.hasOwn(f, "bbox"))).toBe(false);
  });
});

const hasPyarrow = spawnSync("python3", ["-c", "import pyarrow.parquet"], { stdio: "ignore" }).status === 0;
const hasDuckdb = spawnSync("duckdb", ["-c", "select 1"], { stdio: "ignore" }).status === 0;

describe("independent readers", () => {
  it.skipIf(!hasPyarrow)("opens in pyarrow with the same rows, schema and geo metadata", async () => {
    const file = path.join(tmp.dir, "layer.parquet");
    await writeFile(file, bytes);
    const script = [
      "import json, sys, pyarrow.parquet as pq",
      "t = pq.read_table(sys.argv[1])",
      "md = pq.ParquetFile(sys.argv[1]).metadata",
      "print(json.dumps({'rows': t.num_rows, 'names': t.schema.names, 'bbox': str(t.schema.field('bbox').type),",
      "  'geo': json.loads(t.schema.metadata[b'geo']), 'groups': md.num_row_groups,",
      "  'ids': t.column('id').to_pylist()[:5]}))",
    ].join("\n");
    const out = spawnSync("python3", ["-c", script, file], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    const seen = JSON.parse(out.stdout);
    const metadata = parquetMetadata(toArrayBuffer(bytes));
    expect(seen.rows).toBe(COUNT + 2);
    expect(seen.names).toEqual(["id", "city", "country", "value", "geometry", "bbox"]);
    expect(seen.bbox).toBe("struct<xmin: float not null, ymin: float not null, xmax: float not null, ymax: float not null>");
    expect(seen.geo.version).toBe("1.1.0");
    expect(seen.groups).toBe(metadata.row_groups.length);
    const raw = await parquetReadObjects({ file: toArrayBuffer(bytes), columns: ["id"], rowEnd: 5 });
    expect(seen.ids).toEqual(raw.map((r) => Number(r.id)));
  });

  it.skipIf(!hasDuckdb)("opens in DuckDB with the same row count and bbox", async () => {
    const file = path.join(tmp.dir, "layer-duck.parquet");
    await writeFile(file, bytes);
    const sql = `select count(*) as n, min(bbox.xmin) as w, max(bbox.ymax) as n2 from read_parquet('${file}')`;
    const out = spawnSync("duckdb", ["-json", "-c", sql], { encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    const [row] = JSON.parse(out.stdout);
    expect(row.n).toBe(COUNT + 2);
    const file2 = await openLayerFile(memoryFile(bytes));
    expect(row.w).toBeCloseTo(Math.min(...file2.rowGroups.flatMap((g) => (g.bbox ? [g.bbox[0]] : []))), 4);
  });
});
