/**
 * A result's lossless copy in the blob store, written by the run process beside the format the
 * caller asked for, so that any other format can be made later, on request and by any worker,
 * even after the process that ran the flow is gone (a crash right after the run was final, a
 * format whose writing failed). Without it a completed run's other format could be lost for good.
 *
 * Layout (internal, never served): frames of `[u32 little-endian length][v8.serialize(value)]`;
 * the first frame is the header `{v: 3, kind, columns, tableColumns}`, each further frame one
 * batch of at most `SPILL_BATCH` items, stored by column (`TTableBatch`, `TLayerBatch`): V8
 * writes an array of scalars or a `Float64Array` several times faster than as many small
 * objects, each with its keys (a batch of plain 2D points is one `Float64Array` of x, y).
 * V8's serializer is the structured-clone format Node ships: it keeps every value as it was
 * (numbers bit for bit, `undefined` vs null vs "", nested objects). It is read back by the
 * worker's `node_modules` Node, the same or a later version: V8's deserializer reads the
 * earlier versions of its format (copies written on Node 24 read the same on Node 26). A
 * feature keeps its geometry, `id`, `bbox` and properties in their order (the members every
 * writer reads). Written and read batch by batch: neither side holds a second copy.
 * Copies of the earlier layouts are still read: `v: 1`, a batch as an array of features or row
 * records; `v: 2`, the properties of points held by column written row by row, as those of
 * features are (layout 3 writes them by column, `TLayerBatch.cells`; a reader of layout 2 would
 * take such a batch for one without properties, hence the new number, which it refuses).
 * Bench rows: `nearby-cities 5,000 rows r=30 km, full worker path` (the copy of its 242k-row
 * table, written as one record per row, took about as long as its CSV); `cities-in-area,
 * 1-degree box, 10M-point layer` (its 11,851 point geometries as objects: about 8 ms more).
 */
import v8 from "node:v8";
import type { Geometry } from "geojson";
import type { TEngineResult, TFeature, TRow } from "@/lib/engine/types";
import { pointAt, pointColumn } from "@/lib/geo/point-column";
import { featureCount, pointColumnsOf, sameNames, type TPointColumns } from "@/lib/steps/point-columns";
import { concatColumn, setOwn, tableFromRows, type TColumnValues } from "@/lib/steps/dataset";
import type { TColumns } from "@/lib/steps/columns";

const SPILL_BATCH = 4_096;

interface TSpillHeader {
  v: 1 | 2 | 3;
  kind: "layer" | "table";
  columns: TColumns | null;
  tableColumns: string[];
}

/** Rows of a table: their number and their columns' cells, in `tableColumns` order. */
interface TTableBatch {
  length: number;
  values: TColumnValues[];
}

/** Features of a layer. */
interface TLayerBatch {
  /** Each feature's geometry; null when `points` holds them. */
  geometry: (Geometry | null)[] | null;
  /** When every geometry of the batch is a plain 2D Point (`type` and `coordinates` only): their x, y in turn. */
  points?: Float64Array;
  /** Each feature's `id` (`undefined`: none) and `bbox`; null when no feature of the batch has one. */
  id: unknown[] | null;
  bbox: unknown[] | null;
  /** The distinct property key lists of the batch, each feature's list (an index into `keys`), and every feature's values in its list's order. */
  keys: string[][];
  shape: Uint16Array;
  values: unknown[];
  /** Layout 3, when every feature of the batch has the keys `keys[0]`: each key's cells (`values` is empty then). */
  cells?: TColumnValues[];
}

const LENGTH_PLACEHOLDER = Buffer.alloc(4);

/**
 * One frame: what `v8.serialize(value)` makes (its header, then the value), after its length,
 * written into one buffer: the serializer writes the four bytes of the length first and they are
 * filled in at the end, so the body is not copied into a second buffer (bench "data", the
 * 1-degree `cities-in-area` row on the 10M layer: about 0.55 MB of new buffers a run fewer).
 */
function frame(value: unknown): Uint8Array {
  const serializer = new v8.DefaultSerializer();
  serializer.writeRawBytes(LENGTH_PLACEHOLDER);
  serializer.writeHeader();
  serializer.writeValue(value);
  const out = serializer.releaseBuffer();
  out.writeUInt32LE(out.byteLength - 4, 0);
  return out;
}

function layerBatch(features: TFeature[]): TLayerBatch {
  const points = pointColumn(features.map((f) => f.geometry));
  const batch: TLayerBatch = {
    geometry: points ? null : features.map((f) => f.geometry),
    points,
    id: null,
    bbox: null,
    keys: [],
    shape: new Uint16Array(features.length),
    values: [],
  };
  const shapes = new Map<string, number>();
  let last = -1;
  for (let i = 0; i < features.length; i++) {
    const f = features[i]!;
    if (f.id !== undefined) (batch.id ??= new Array(features.length))[i] = f.id;
    if (f.bbox !== undefined) (batch.bbox ??= new Array(features.length))[i] = f.bbox;
    const props = f.properties ?? {};
    const keys = Object.keys(props);
    // features of one step share their keys: compare with the last list before searching
    if (last < 0 || !sameNames(batch.keys[last]!, keys)) {
      const id = JSON.stringify(keys);
      last = shapes.get(id) ?? batch.keys.push(keys) - 1;
      shapes.set(id, last);
    }
    batch.shape[i] = last;
    for (const key of keys) batch.values.push(props[key]);
  }
  return batch;
}

/**
 * Cells `start` to `end` (exclusive) of a column, as an array V8 writes densely: a column made
 * with `new Array(n)` has "holey" elements even when every cell is set, and V8's serializer
 * writes such an array as a sparse one, index by index (2.4x as long and a third larger for a
 * batch of 4,096 mixed cells), where a "packed" one (built by `push`) is written as a list.
 */
function packedSlice(cells: TColumnValues, start: number, end: number): TColumnValues {
  // a view, not a copy: Node's serializer writes a typed array's own bytes, not its whole buffer
  if (cells instanceof Float64Array) return cells.subarray(start, end);
  const out: unknown[] = [];
  for (let i = start; i < Math.min(end, cells.length); i++) out.push(cells[i]);
  return out;
}

/**
 * `layerBatch` of features `start` to `end` (exclusive) of `cols`, read from their columns: the
 * same features, with none made, and their properties by column (`cells`): V8 writes a column of
 * numbers (a `Float64Array`) as its bytes and a column of strings as one list, where one list of
 * every cell in turn boxes each number and writes it value by value (bench "data", the 1-degree
 * `cities-in-area` row on the 10M layer: the copy of its 11,851 points took 5 ms of the run
 * process by row).
 */
function pointsBatch(cols: TPointColumns, start: number, end: number): TLayerBatch {
  const { columns, values } = cols.props;
  const points = cols.points.subarray(2 * start, 2 * end);
  const cells = values.map((column) => packedSlice(column, start, end));
  return { geometry: null, points, id: null, bbox: null, keys: [columns], shape: new Uint16Array(end - start), values: [], cells };
}

function layerFeatures(batch: TLayerBatch, out: TFeature[]): void {
  let v = 0;
  const { points, cells } = batch;
  for (let i = 0; i < batch.shape.length; i++) {
    const properties: Record<string, unknown> = {};
    const keys = batch.keys[batch.shape[i]!]!;
    for (let k = 0; k < keys.length; k++) setOwn(properties, keys[k]!, cells ? cells[k]![i] : batch.values[v++]);
    const geometry: Geometry | null = points ? pointAt(points, i) : batch.geometry![i]!;
    const feature: TFeature = { type: "Feature", geometry, properties };
    if (batch.id?.[i] !== undefined) feature.id = batch.id[i] as string | number;
    if (batch.bbox?.[i] !== undefined) feature.bbox = batch.bbox[i] as TFeature["bbox"];
    out.push(feature);
  }
}

/** The frames of `result` (header, then batches), for `TBlobStore.put`. */
export async function* spillFrames(result: TEngineResult, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const header: TSpillHeader = {
    v: 3,
    kind: result.kind,
    columns: result.columns ?? null,
    tableColumns: result.kind === "table" ? result.data.columns : [],
  };
  yield frame(header);
  const cols = result.kind === "layer" ? pointColumnsOf(result.data) : undefined;
  const length = result.kind === "layer" ? featureCount(result.data) : result.data.length;
  for (let i = 0; i < length; i += SPILL_BATCH) {
    signal?.throwIfAborted();
    if (cols) yield frame(pointsBatch(cols, i, Math.min(length, i + SPILL_BATCH)));
    else if (result.kind === "layer") yield frame(layerBatch(result.data.features.slice(i, i + SPILL_BATCH)));
    else {
      const batch: TTableBatch = {
        length: Math.min(SPILL_BATCH, length - i),
        values: result.data.values.map((cells) => packedSlice(cells, i, i + SPILL_BATCH)),
      };
      yield frame(batch);
    }
  }
}

/** Reads a spill back (from `TBlobStore.stream`) into the engine result it was made of. */
export async function readSpill(key: string, chunks: AsyncIterable<Uint8Array>): Promise<TEngineResult> {
  let pending = Buffer.alloc(0);
  let header: TSpillHeader | null = null;
  const batches: unknown[] = [];
  for await (const chunk of chunks) {
    pending = pending.byteLength === 0 ? Buffer.from(chunk) : Buffer.concat([pending, chunk]);
    let offset = 0;
    while (pending.byteLength - offset >= 4) {
      const length = pending.readUInt32LE(offset);
      if (pending.byteLength - offset - 4 < length) break;
      const value = v8.deserialize(pending.subarray(offset + 4, offset + 4 + length)) as unknown;
      offset += 4 + length;
      if (!header) header = value as TSpillHeader;
      else batches.push(value);
    }
    pending = pending.subarray(offset);
  }
  if (!header || ![1, 2, 3].includes(header.v) || pending.byteLength > 0) throw new Error(`result copy ${key} is incomplete or of an unknown version`);
  const columns = header.columns ?? undefined;
  if (header.v === 1) {
    const items = (batches as unknown[][]).flat();
    if (header.kind === "layer") return { key, kind: "layer", data: { kind: "features", features: items as TFeature[] }, columns };
    return { key, kind: "table", data: tableFromRows(header.tableColumns, items as TRow[]), columns };
  }
  if (header.kind === "layer") {
    const features: TFeature[] = [];
    for (const batch of batches as TLayerBatch[]) layerFeatures(batch, features);
    return { key, kind: "layer", data: { kind: "features", features }, columns };
  }
  const parts = batches as TTableBatch[];
  const values = header.tableColumns.map((_, c) => concatColumn(parts.map((p) => p.values[c]!)));
  const length = parts.reduce((n, p) => n + p.length, 0);
  return { key, kind: "table", data: { kind: "rows", columns: header.tableColumns, values, length }, columns };
}
