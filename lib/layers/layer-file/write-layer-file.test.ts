import { readdir } from "node:fs/promises";
import type { Geometry, Point } from "geojson";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TFeature, TFeatureSet, TRow } from "@/lib/engine/types";
import { decodeWkb, toArrayBuffer } from "@/lib/formats/test-support";
import { hilbertKeyOfLonLat } from "./hilbert";
import { openLayerFile, readLayerBatches } from "./read-layer-file";
import { syntheticPoints } from "@/bench/synthetic-points";
import { flatBbox, memoryFile, tempDir, writeToBytes } from "./test-support";
import { float32Outward, writeLayerFile } from "./write-layer-file";

const square = (x: number, y: number, s: number) => [
  [x, y],
  [x + s, y],
  [x + s, y + s],
  [x, y + s],
  [x, y],
];

/** One feature of each geometry type (and none), with awkward property names and values. */
function oddLayer(): TFeature[] {
  const geometries: (Geometry | null)[] = [
    { type: "Point", coordinates: [2.3522, 48.8566] },
    {
      type: "LineString",
      coordinates: [
        [-0.1276, 51.5072],
        [2.3522, 48.8566],
        [13.405, 52.52],
      ],
    },
    { type: "Polygon", coordinates: [square(10, 10, 5), square(11, 11, 1)] },
    { type: "MultiPolygon", coordinates: [[square(-75, 40, 1)], [square(-70, 42, 2), square(-69.5, 42.5, 0.5)]] },
    null,
    { type: "Point", coordinates: [139.6917, 35.6895, 40] },
    {
      type: "MultiPoint",
      coordinates: [
        [-58.38, -34.6],
        [-58.4, -34.7],
      ],
    },
    {
      type: "MultiLineString",
      coordinates: [
        [
          [170, -45],
          [175, -40],
        ],
        [
          [-179.5, -16],
          [-178, -17],
        ],
      ],
    },
    {
      type: "GeometryCollection",
      geometries: [
        { type: "Point", coordinates: [31.2, 30.04] },
        {
          type: "LineString",
          coordinates: [
            [31, 30],
            [32, 31],
          ],
        },
      ],
    },
  ];
  return geometries.map((geometry, i) => ({
    type: "Feature",
    geometry,
    properties: {
      id: i,
      "name with space": i === 0 ? "Zürich – 東京 🚀" : i === 1 ? 'quote " comma, newline\nend' : `feature ${i}`,
      "a.b": i % 2 === 0 ? i + 0.25 : null,
      flag: i % 3 === 0,
      big: i === 2 ? 2 ** 40 : i === 3 ? -(2 ** 53 - 1) : i,
      mixed: i === 4 ? "four" : i,
      ["__proto__"]: `proto ${i}`,
      geometry: `a property named geometry ${i}`,
      bbox: i,
      ...(i === 5 ? { onlyHere: true } : {}),
    },
  }));
}

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  tmp = await tempDir();
});
afterEach(async () => {
  await tmp.remove();
});

describe("writeLayerFile (features)", () => {
  it("writes GeoParquet 1.1 with the bbox covering column, inferred types and a summary that matches", async () => {
    const input = oddLayer();
    const { bytes, summary } = await writeToBytes(input, { kind: "features", tmpDir: tmp.dir });
    const metadata = parquetMetadata(toArrayBuffer(bytes), { geoparquet: false });
    const expectedBbox = [-179.5, -45, 175, 52.52];
    const expectedTypes = ["GeometryCollection", "LineString", "MultiLineString", "MultiPoint", "MultiPolygon", "Point", "Point Z", "Polygon"];
    const geo = JSON.parse(metadata.key_value_metadata!.find((kv) => kv.key === "geo")!.value!);
    expect(geo).toEqual({
      version: "1.1.0",
      primary_column: "geometry",
      columns: {
        geometry: {
          encoding: "WKB",
          geometry_types: expectedTypes,
          bbox: expectedBbox,
          covering: { bbox: { xmin: ["bbox", "xmin"], ymin: ["bbox", "ymin"], xmax: ["bbox", "xmax"], ymax: ["bbox", "ymax"] } },
        },
      },
    });
    // property columns in first-seen order; clashing names renamed; the bbox struct of FLOATs last
    expect(metadata.schema.slice(1).map((e) => [e.name, e.converted_type ? `${e.type}/${e.converted_type}` : e.type])).toEqual([
      ["id", "INT64"],
      ["name with space", "BYTE_ARRAY/UTF8"],
      ["a.b", "DOUBLE"],
      ["flag", "BOOLEAN"],
      ["big", "INT64"],
      ["mixed", "BYTE_ARRAY/UTF8"],
      ["__proto__", "BYTE_ARRAY/UTF8"],
      ["geometry_1", "BYTE_ARRAY/UTF8"],
      ["bbox_1", "INT64"],
      ["onlyHere", "BOOLEAN"],
      ["geometry", "BYTE_ARRAY"],
      ["bbox", undefined],
      ["xmin", "FLOAT"],
      ["ymin", "FLOAT"],
      ["xmax", "FLOAT"],
      ["ymax", "FLOAT"],
      ["input_position", "INT64"],
    ]);
    expect(metadata.schema.find((e) => e.name === "bbox")).toMatchObject({ num_children: 4, repetition_type: "OPTIONAL" });
    expect(metadata.row_groups[0].columns.every((c) => c.meta_data?.codec === "SNAPPY")).toBe(true);
    expect(summary).toEqual({
      kind: "features",
      itemCount: 9,
      bbox: expectedBbox,
      geometryTypes: expectedTypes,
      columns: metadata.schema
        .slice(1, 11)
        .map((e) => ({ name: e.name, type: e.type === "BYTE_ARRAY" ? "string" : e.type === "DOUBLE" ? "double" : e.type === "BOOLEAN" ? "boolean" : "int64" })),
      rowGroups: 1,
      sizeBytes: bytes.byteLength,
    });
  });

  it("stores WKB that decodes (independently) to the input geometries, and a float32 bbox that covers each one", async () => {
    const input = oddLayer();
    const { bytes } = await writeToBytes(input, { kind: "features", tmpDir: tmp.dir, rowGroupRows: 4 });
    const file = toArrayBuffer(bytes);
    const metadata = parquetMetadata(file, { geoparquet: false });
    const rows = await parquetReadObjects({ file, metadata, utf8: false, columns: ["id", "geometry", "bbox"] });
    expect(rows).toHaveLength(input.length);
    for (const row of rows) {
      const original = input[Number(row.id)];
      expect(row.geometry === null ? null : decodeWkb(row.geometry as Uint8Array)).toEqual(original.geometry);
      const box = flatBbox(original.geometry);
      if (!box) {
        expect(row.bbox ?? null).toBeNull();
        continue;
      }
      const { xmin, ymin, xmax, ymax } = row.bbox as Record<string, number>;
      expect([xmin, ymin, xmax, ymax].every((v) => Math.fround(v) === v)).toBe(true);
      expect(xmin).toBeLessThanOrEqual(box[0]);
      expect(ymin).toBeLessThanOrEqual(box[1]);
      expect(xmax).toBeGreaterThanOrEqual(box[2]);
      expect(ymax).toBeGreaterThanOrEqual(box[3]);
      // at most one float32 step outside
      expect(Math.abs(xmin - box[0])).toBeLessThanOrEqual(Math.abs(box[0]) * 2 ** -23);
      expect(Math.abs(ymax - box[3])).toBeLessThanOrEqual(Math.abs(box[3]) * 2 ** -23);
    }
    // row group statistics of the covering columns: min of xmin/ymin, max of xmax/ymax over the group's rows
    let start = 0;
    for (const group of metadata.row_groups) {
      const groupRows = rows.slice(start, start + Number(group.num_rows));
      start += Number(group.num_rows);
      const boxes = groupRows.map((r) => r.bbox as Record<string, number> | undefined).filter((b) => b);
      const stat = (field: string) => group.columns.find((c) => c.meta_data?.path_in_schema.join(".") === `bbox.${field}`)!.meta_data!.statistics!;
      expect(Number(stat("xmin").null_count)).toBe(groupRows.length - boxes.length);
      if (boxes.length === 0) {
        // only the feature without geometry: no min/max at all
        expect(stat("xmin").min_value).toBeUndefined();
        continue;
      }
      expect(stat("xmin").min_value).toBe(Math.min(...boxes.map((b) => b!.xmin)));
      expect(stat("ymin").min_value).toBe(Math.min(...boxes.map((b) => b!.ymin)));
      expect(stat("xmax").max_value).toBe(Math.max(...boxes.map((b) => b!.xmax)));
      expect(stat("ymax").max_value).toBe(Math.max(...boxes.map((b) => b!.ymax)));
    }
    expect(metadata.row_groups).toHaveLength(3);
  });

  it("round-trips features through the reader: same geometries, properties by their own names, nulls for missing ones", async () => {
    const input = oddLayer();
    const { bytes } = await writeToBytes(input, { kind: "features", tmpDir: tmp.dir });
    const file = await openLayerFile(memoryFile(bytes));
    const read: TFeature[] = [];
    for await (const batch of readLayerBatches(file, null)) read.push(...(batch as TFeatureSet).features);
    const keys = ["id", "name with space", "a.b", "flag", "big", "mixed", "__proto__", "geometry", "bbox", "onlyHere"];
    expect(file.columns.map((c) => c.name)).toEqual(keys);
    const byId = new Map(read.map((f) => [f.properties.id, f]));
    for (const original of input) {
      const back = byId.get(original.properties.id)!;
      expect(back.geometry).toEqual(original.geometry);
      expect(Object.keys(back.properties)).toEqual(keys);
      for (const key of keys) {
        const value = Object.hasOwn(original.properties, key) ? original.properties[key] : null;
        // "mixed" holds a string and numbers: a text column
        expect(back.properties[key]).toEqual(key === "mixed" ? String(value) : value);
      }
      expect(Object.getPrototypeOf(back.properties)).toBe(Object.prototype);
    }
  });

  it("orders row groups along the Hilbert curve of their bbox centres (features without coordinates last, ties in input order), the rows of a group in input order", async () => {
    const input: TFeature[] = [];
    const places = [
      [2.35, 48.85],
      [-74, 40.7],
      [139.7, 35.7],
      [2.35, 48.85],
      [-58.4, -34.6],
    ];
    for (let i = 0; i < 40; i++) {
      const [lon, lat] = places[i % places.length];
      input.push({ type: "Feature", geometry: i % 7 === 6 ? null : { type: "Point", coordinates: [lon, lat] }, properties: { id: i } });
    }
    // tiny budget: ties cross run boundaries
    const { bytes } = await writeToBytes(input, { kind: "features", tmpDir: tmp.dir, memoryBytes: 2_000, rowGroupRows: 8 });
    const rows = await parquetReadObjects({ file: toArrayBuffer(bytes), columns: ["id"] });
    const key = (f: TFeature) => (f.geometry ? hilbertKeyOfLonLat(...((f.geometry as Point).coordinates as [number, number])) : Infinity);
    const along = input
      .map((f, i) => ({ i, k: key(f) }))
      .sort((a, b) => a.k - b.k || a.i - b.i)
      .map((e) => e.i);
    const expected = [0, 8, 16, 24, 32].flatMap((start) => along.slice(start, start + 8).sort((a, b) => a - b)).map(BigInt);
    expect(rows.map((r) => r.id)).toEqual(expected);
  });

  it("gives the same file with a tiny memory budget (many runs on disk) as with one run in memory", async () => {
    const points = [...syntheticPoints(6_000, 7)];
    const one = await writeToBytes(points, { kind: "features", tmpDir: tmp.dir, rowGroupRows: 500 });
    const runFiles = new Set<string>();
    const chunks: Uint8Array[] = [];
    const summary = await writeLayerFile(points, {
      kind: "features",
      tmpDir: tmp.dir,
      rowGroupRows: 500,
      memoryBytes: 200_000,
      // the sink is called while the runs are being merged: see how many there are
      sink: async (chunk) => {
        chunks.push(chunk);
        for (const name of await tmp.leftovers()) if (name.includes("run-")) runFiles.add(name);
      },
    });
    expect(runFiles.size).toBeGreaterThan(5);
    expect(Buffer.concat(chunks).equals(one.bytes)).toBe(true);
    expect(summary).toEqual(one.summary);
    expect(summary.rowGroups).toBe(12);
    expect(await tmp.leftovers()).toEqual([]);
  });

  it("infers a column's type over every item, also those spilled to disk before the type changed", async () => {
    const input: TFeature[] = [...syntheticPoints(3_000, 3)];
    input[2_999] = { ...input[2_999], properties: { ...input[2_999].properties, id: "last one is text", value: 5n } };
    const { summary, bytes } = await writeToBytes(input, { kind: "features", tmpDir: tmp.dir, memoryBytes: 100_000 });
    expect(summary.columns).toEqual([
      { name: "id", type: "string" },
      { name: "city", type: "string" },
      { name: "country", type: "string" },
      { name: "value", type: "double" },
    ]);
    const rows = await parquetReadObjects({ file: toArrayBuffer(bytes), columns: ["id", "value"] });
    expect(rows.filter((r) => r.id === "last one is text")).toEqual([{ id: "last one is text", value: 5 }]);
    expect(rows.filter((r) => r.id === "0")).toEqual([{ id: "0", value: input[0].properties.value }]);
  });

  it("writes an empty layer as a valid file without row groups", async () => {
    const { bytes, summary } = await writeToBytes([], { kind: "features", tmpDir: tmp.dir });
    expect(summary).toMatchObject({ itemCount: 0, bbox: null, geometryTypes: [], columns: [], rowGroups: 0 });
    const metadata = parquetMetadata(toArrayBuffer(bytes));
    expect(Number(metadata.num_rows)).toBe(0);
  });

  it("rejects an item that is not a feature and an invalid geometry, naming its input position", async () => {
    await expect(writeToBytes([{ type: "Feature", geometry: null, properties: {} }, { id: 1 } as TRow], { kind: "features", tmpDir: tmp.dir })).rejects.toThrow(
      /item 1: not a GeoJSON Feature/,
    );
    const bad = [...syntheticPoints(5, 1), { type: "Feature", geometry: { type: "Point", coordinates: ["x", 1] }, properties: {} } as unknown as TFeature];
    await expect(writeToBytes(bad, { kind: "features", tmpDir: tmp.dir })).rejects.toThrow(/item 5: /);
  });
});

describe("writeLayerFile (tables)", () => {
  it("writes rows in input order with types inferred over all rows, through spilled runs", async () => {
    const rows: TRow[] = Array.from({ length: 2_000 }, (_, i) => ({
      n: i,
      label: `row ${i}`,
      maybe: i === 1_999 ? 0.5 : i,
      ...(i === 7 ? { late: true } : {}),
    }));
    const { bytes, summary } = await writeToBytes(rows, { kind: "table", tmpDir: tmp.dir, memoryBytes: 20_000, rowGroupRows: 300 });
    expect(summary).toEqual({
      kind: "table",
      itemCount: 2_000,
      bbox: null,
      geometryTypes: [],
      columns: [
        { name: "n", type: "int64" },
        { name: "label", type: "string" },
        { name: "maybe", type: "double" },
        { name: "late", type: "boolean" },
      ],
      rowGroups: 7,
      sizeBytes: bytes.byteLength,
    });
    const metadata = parquetMetadata(toArrayBuffer(bytes));
    expect(metadata.key_value_metadata?.some((kv) => kv.key === "geo")).toBe(false);
    const file = await openLayerFile(memoryFile(bytes));
    expect(file.kind).toBe("table");
    const back: TRow[] = [];
    for await (const batch of readLayerBatches(file, [0, 0, 1, 1])) back.push(...(batch as TRow[]));
    expect(back).toEqual(rows.map((r) => ({ n: r.n, label: r.label, maybe: r.maybe, late: r.late ?? null })));
  });
});

describe("writeLayerFile (integers beyond 2^53)", () => {
  it("writes a column holding a number beyond ±(2^53 - 1) as DOUBLE and one holding such a bigint as text, so each reads back as one type, the same values", async () => {
    const rows: TRow[] = [
      { safe: 1, huge: 2 ** 60, neg: 5, big: 1n, both: 1 },
      { safe: -(2 ** 53 - 1), huge: 1, neg: -1e18, big: 2n ** 60n + 1n, both: 2n ** 62n },
    ];
    const { bytes, summary } = await writeToBytes(rows, { kind: "table", tmpDir: tmp.dir });
    expect(summary.columns).toEqual([
      { name: "safe", type: "int64" },
      { name: "huge", type: "double" },
      { name: "neg", type: "double" },
      { name: "big", type: "string" },
      { name: "both", type: "string" },
    ]);
    const back: TRow[] = [];
    for await (const batch of readLayerBatches(await openLayerFile(memoryFile(bytes)), null)) back.push(...(batch as TRow[]));
    expect(back).toEqual([
      { safe: 1, huge: 2 ** 60, neg: 5, big: "1", both: "1" },
      { safe: -(2 ** 53 - 1), huge: 1, neg: -1e18, big: "1152921504606846977", both: "4611686018427387904" },
    ]);
    expect(() => JSON.stringify(back)).not.toThrow();
  });
});

describe("writeLayerFile temporary files", () => {
  const points = () => syntheticPoints(10_000, 5);
  const spilling = { kind: "features" as const, memoryBytes: 200_000 };

  it("removes its run files after success", async () => {
    let sawRuns = false;
    await writeLayerFile(points(), {
      ...spilling,
      tmpDir: tmp.dir,
      sink: async () => {
        sawRuns ||= (await tmp.leftovers()).length > 0;
      },
    });
    expect(sawRuns).toBe(true);
    expect(await tmp.leftovers()).toEqual([]);
  });

  it("removes them when the input fails after runs were spilled", async () => {
    async function* failing() {
      yield* points();
      throw new Error("source broke");
    }
    await expect(writeLayerFile(failing(), { ...spilling, tmpDir: tmp.dir, sink: () => {} })).rejects.toThrow("source broke");
    expect(await tmp.leftovers()).toEqual([]);
  });

  it("removes them when the sink fails while merging", async () => {
    await expect(
      writeLayerFile(points(), {
        ...spilling,
        tmpDir: tmp.dir,
        sink: () => {
          throw new Error("upload failed");
        },
      }),
    ).rejects.toThrow("upload failed");
    expect(await tmp.leftovers()).toEqual([]);
  });

  it("removes them when aborted while sorting and while writing", async () => {
    for (const phase of ["sorting", "writing"] as const) {
      const controller = new AbortController();
      const reason = new Error(`stop while ${phase}`);
      let runsExisted = false;
      const written = writeLayerFile(points(), {
        ...spilling,
        tmpDir: tmp.dir,
        rowGroupRows: 500,
        signal: controller.signal,
        sink: () => {},
        onProgress: (done, at) => {
          if (at === phase && done >= 4_000) {
            void tmp.leftovers().then((files) => (runsExisted ||= files.length > 0));
            controller.abort(reason);
          }
        },
      });
      await expect(written).rejects.toBe(reason);
      expect(await tmp.leftovers()).toEqual([]);
      expect(runsExisted || phase === "sorting").toBe(true);
    }
  });

  it("makes no temporary file when everything fits in one run", async () => {
    const seen: string[] = [];
    await writeLayerFile(points(), { kind: "features", tmpDir: tmp.dir, sink: async () => void seen.push(...(await readdir(tmp.dir))) });
    expect(seen).toEqual([]);
  });
});

describe("float32Outward", () => {
  it("rounds down or up to a float32 on the right side of the value", () => {
    for (const value of [0, 1e-50, -1e-50, 0.1, -0.1, 179.99999999, -179.99999999, 48.8566, -33.123456789, 90, 2 ** -140]) {
      const down = float32Outward(value, true);
      const up = float32Outward(value, false);
      expect(Math.fround(down)).toBe(down);
      expect(Math.fround(up)).toBe(up);
      expect(down).toBeLessThanOrEqual(value);
      expect(up).toBeGreaterThanOrEqual(value);
      // no float32 strictly between the rounded value and the next one past the input
      expect(up - down).toBeLessThanOrEqual(Math.max(Math.abs(value) * 2 ** -22, 2 ** -148));
    }
  });
});
