import v8 from "node:v8";
import { describe, expect, it } from "vitest";
import type { TEngineResult, TFeature } from "@/lib/engine/types";
import { pointFeatures } from "@/lib/steps/point-columns";
import { readSpill, spillFrames } from "./result-spill";

async function roundTrip(result: TEngineResult): Promise<TEngineResult> {
  const frames: Uint8Array[] = [];
  for await (const f of spillFrames(result)) frames.push(f);
  // read back in odd-sized chunks: a frame may be split anywhere
  const bytes = Buffer.concat(frames);
  async function* chunks() {
    for (let i = 0; i < bytes.length; i += 1_000) yield bytes.subarray(i, i + 1_000);
  }
  return readSpill(result.key, chunks());
}

/** One frame of a copy as result-spill.ts writes it (length, then the V8-serialized value), for copies of earlier layouts. */
function frame(value: unknown): Buffer {
  const body = v8.serialize(value);
  const head = Buffer.alloc(4);
  head.writeUInt32LE(body.byteLength);
  return Buffer.concat([head, body]);
}

function feature(i: number): TFeature {
  const properties: Record<string, unknown> =
    i % 3 === 0
      ? { name: `n${i}`, value: i / 7, nested: { a: [i, null] } }
      : i % 3 === 1
        ? { value: -0, name: "", missing: undefined }
        : { big: 2n ** 70n, nan: NaN, inf: -Infinity };
  if (i === 5) Object.defineProperty(properties, "__proto__", { value: 1, enumerable: true, writable: true, configurable: true });
  const f: TFeature = { type: "Feature", geometry: i % 10 === 9 ? null : { type: "Point", coordinates: [i / 3, -i / 9] }, properties };
  if (i % 4 === 0) f.id = i % 8 === 0 ? i : `f${i}`;
  if (i === 7) f.bbox = [1, 2, 3, 4];
  return f;
}

describe("result copy", () => {
  it("gives back every feature of a layer as it was: geometry, id, bbox, property values and their order", async () => {
    const features = Array.from({ length: 9_000 }, (_, i) => feature(i));
    const columns = [{ name: "name", type: "string" }] as never;
    const back = await roundTrip({ key: "places", kind: "layer", data: { kind: "features", features }, columns });
    expect(back.kind).toBe("layer");
    expect(back.columns).toStrictEqual(columns);
    const got = back.kind === "layer" ? back.data.features : [];
    expect(got).toHaveLength(features.length);
    for (let i = 0; i < features.length; i++) {
      expect(got[i]).toStrictEqual(features[i]);
      expect(Object.keys(got[i]!.properties)).toStrictEqual(Object.keys(features[i]!.properties));
    }
    expect(Object.is((got[1]!.properties as { value: number }).value, -0)).toBe(true);
    expect(Object.getOwnPropertyDescriptor(got[5]!.properties, "__proto__")?.value).toBe(1);
  });

  it("gives back plain 2D points (kept as x, y) and batches with any other point as they were", async () => {
    const point = (x: number, y: number): TFeature => ({ type: "Feature", geometry: { type: "Point", coordinates: [x, y] }, properties: { x } });
    const plain = [point(-0, NaN), point(1e-300, -180), point(Number.MAX_VALUE, 90)];
    const odd: TFeature[] = [
      { type: "Feature", geometry: { type: "Point", coordinates: [1, 2, 3] }, properties: {} },
      { type: "Feature", geometry: { type: "Point", coordinates: [1, 2], bbox: [1, 2, 1, 2] }, properties: {} },
      { type: "Feature", geometry: { coordinates: [1, 2], type: "Point" } as never, properties: {} },
      { type: "Feature", geometry: { type: "Point", coordinates: [] }, properties: {} },
    ];
    for (const features of [plain, ...odd.map((f) => [...plain, f])]) {
      const back = await roundTrip({ key: "points", kind: "layer", data: { kind: "features", features } });
      const got = back.kind === "layer" ? back.data.features : [];
      expect(got).toStrictEqual(features);
      got.forEach((f, i) => expect(Object.keys(f.geometry!)).toStrictEqual(Object.keys(features[i]!.geometry!)));
      expect(Object.is((got[0]!.geometry as { coordinates: number[] }).coordinates[0], -0)).toBe(true);
    }
  });

  it("gives back points held by column as the features they stand for, cells of every kind, by batch", async () => {
    const length = 9_000;
    const points = Float64Array.from({ length: 2 * length }, (_, i) => (i % 2 ? -i / 9 : i / 3));
    const ids = Float64Array.from({ length }, (_, i) => i * 1_000 + 0.5);
    const mixed = Array.from({ length }, (_, i) => (i % 5 === 0 ? undefined : i % 5 === 1 ? null : i % 5 === 2 ? `s${i}` : i % 5 === 3 ? { deep: [i] } : 3n));
    const columns = ["id", "__proto__", "m"];
    const data = pointFeatures({ props: { kind: "rows", columns, values: [ids, new Array(length).fill("p"), mixed], length }, points, positions: null });
    const back = await roundTrip({ key: "points", kind: "layer", data });
    const got = back.kind === "layer" ? back.data.features : [];
    expect(got).toStrictEqual(data.features);
    expect(Object.keys(got[0]!.properties)).toStrictEqual(columns);
    expect(Object.getOwnPropertyDescriptor(got[length - 1]!.properties, "__proto__")?.value).toBe("p");
  });

  it("writes each batch's own share of a typed column, not the whole column, though it takes a view of it", async () => {
    const length = 9_000; // three batches
    const points = Float64Array.from({ length: 2 * length }, (_, i) => i / 7);
    const values = Float64Array.from({ length }, (_, i) => i);
    const data = pointFeatures({ props: { kind: "rows", columns: ["v"], values: [values], length }, points, positions: null });
    const frames: Uint8Array[] = [];
    for await (const f of spillFrames({ key: "points", kind: "layer", data })) frames.push(f);
    const written = frames.reduce((n, f) => n + f.byteLength, 0);
    const columnBytes = points.byteLength + values.byteLength;
    expect(written).toBeGreaterThan(columnBytes);
    expect(written).toBeLessThan(columnBytes + 40_000); // headers and each feature's key list index (2 bytes)
    const back = await roundTrip({ key: "points", kind: "layer", data });
    expect(back.kind === "layer" && back.data.features).toStrictEqual(data.features);
  });

  it("gives back a table's columns, typed columns typed, missing cells missing", async () => {
    const length = 5_000;
    const numbers = Float64Array.from({ length }, (_, i) => i * 0.1);
    const mixed = Array.from({ length }, (_, i) => (i % 5 === 0 ? undefined : i % 5 === 1 ? null : i % 5 === 2 ? `s${i}` : i % 5 === 3 ? { deep: [i] } : 3n));
    const back = await roundTrip({ key: "t", kind: "table", data: { kind: "rows", columns: ["x", "m"], values: [numbers, mixed], length } });
    expect(back).toStrictEqual({ key: "t", kind: "table", data: { kind: "rows", columns: ["x", "m"], values: [numbers, mixed], length }, columns: undefined });
  });

  it("writes a column made with new Array(n) (as the steps make them) as densely as one built by push", async () => {
    const length = 5_000;
    const pushed: unknown[] = [];
    for (let i = 0; i < length; i++) pushed.push(i % 3 === 0 ? `s${i}` : i % 3 === 1 ? i * 1000 : null);
    const preallocated = new Array<unknown>(length);
    for (let i = 0; i < length; i++) preallocated[i] = pushed[i];
    const bytes = async (values: unknown[]) => {
      const frames: Uint8Array[] = [];
      for await (const f of spillFrames({ key: "t", kind: "table", data: { kind: "rows", columns: ["c"], values: [values], length } })) frames.push(f);
      return Buffer.concat(frames);
    };
    // V8 writes an array with "holey" elements index by index, as a sparse one
    expect((await bytes(preallocated)).equals(await bytes(pushed))).toBe(true);
    const back = await roundTrip({ key: "t", kind: "table", data: { kind: "rows", columns: ["c"], values: [preallocated], length } });
    expect(back.kind === "table" && back.data.values[0]).toStrictEqual(pushed);
  });

  it("keeps the row count of a table without columns, and an empty table", async () => {
    const none = await roundTrip({ key: "t", kind: "table", data: { kind: "rows", columns: [], values: [], length: 5_000 } });
    expect(none.kind === "table" && none.data.length).toBe(5_000);
    const empty = await roundTrip({ key: "t", kind: "table", data: { kind: "rows", columns: ["a"], values: [[]], length: 0 } });
    expect(empty.kind === "table" && empty.data).toStrictEqual({ kind: "rows", columns: ["a"], values: [[]], length: 0 });
  });

  it("still reads a copy of the first layout (batches of features or row records)", async () => {
    async function* v1(kind: "layer" | "table", items: unknown[]) {
      yield frame({ v: 1, kind, columns: null, tableColumns: kind === "table" ? ["a", "b"] : [] });
      yield frame(items);
    }
    const layer = await readSpill("l", v1("layer", [feature(0)]));
    expect(layer.kind === "layer" && layer.data.features).toStrictEqual([feature(0)]);
    const table = await readSpill("t", v1("table", [{ a: 1 }, { a: 2, b: "x" }]));
    expect(table.kind === "table" && table.data).toStrictEqual({
      kind: "rows",
      columns: ["a", "b"],
      values: [
        [1, 2],
        [undefined, "x"],
      ],
      length: 2,
    });
  });

  it("still reads a copy of the second layout (the properties of points held by column written row by row)", async () => {
    async function* v2() {
      yield frame({ v: 2, kind: "layer", columns: null, tableColumns: [] });
      yield frame({
        geometry: null,
        points: Float64Array.of(1, 2, 3, 4),
        id: null,
        bbox: null,
        keys: [["a", "b"]],
        shape: new Uint16Array(2),
        values: [1, "x", undefined, "y"],
      });
    }
    const layer = await readSpill("l", v2());
    expect(layer.kind === "layer" && layer.data.features).toStrictEqual([
      { type: "Feature", geometry: { type: "Point", coordinates: [1, 2] }, properties: { a: 1, b: "x" } },
      { type: "Feature", geometry: { type: "Point", coordinates: [3, 4] }, properties: { a: undefined, b: "y" } },
    ]);
  });

  it("refuses a copy of a layout it does not know, and one cut short", async () => {
    async function* v4() {
      yield frame({ v: 4, kind: "layer", columns: null, tableColumns: [] });
    }
    await expect(readSpill("l", v4())).rejects.toThrow(/unknown version/);
    const frames: Uint8Array[] = [];
    for await (const f of spillFrames({ key: "t", kind: "table", data: { kind: "rows", columns: ["a"], values: [[1]], length: 1 } })) frames.push(f);
    const bytes = Buffer.concat(frames);
    async function* cut() {
      yield bytes.subarray(0, bytes.length - 2);
    }
    await expect(readSpill("t", cut())).rejects.toThrow(/incomplete/);
  });
});
