/**
 * Writes a layer (features) or a table (rows) as one Parquet file, streaming, in bounded memory.
 *
 * Features -> GeoParquet 1.1 (https://geoparquet.org/releases/v1.1.0/):
 * - rows sorted by the Hilbert key of each geometry's bbox centre (hilbert.ts; features without
 *   coordinates last; equal keys keep input order), so each row group covers a compact area;
 *   within a row group, rows are in input order: a read of a few row groups is then a few runs
 *   of the layer's own order, which a reader restores with a merge more than a sort (bench
 *   "data", the 1-degree `cities-in-area` row: 2.5 -> 0.8 ms to order its 11,851 features
 *   coming from 9 row groups);
 * - property columns first (in first-seen order over all features; a property named
 *   `geometry`, `bbox` or `input_position` is written as `geometry_1` / `bbox_1` /
 *   `input_position_1`, the mapping kept in the `flow-api:layer-file` metadata), types inferred
 *   over ALL features (lib/formats/column-types.ts), except that a column holding an integer
 *   beyond ±(2^53 - 1) is never INT64 (`WideIntegerColumns`), every column OPTIONAL;
 * - `geometry`: BYTE_ARRAY of ISO WKB (lib/formats/wkb.ts), null for a feature without one;
 * - `bbox`: the 1.1 covering column, an OPTIONAL struct of REQUIRED FLOAT `xmin, ymin, xmax,
 *   ymax`, rounded outward to float32 so it still covers the geometry (null without
 *   coordinates); its row group statistics are what readers skip row groups by;
 * - `input_position`: REQUIRED INT64, each feature's position in the input, the layer's own
 *   order, which readers restore for the engine (the row groups are in Hilbert order);
 * - `feature_members`, only when some feature has an `id` or a `bbox` member: OPTIONAL UTF-8,
 *   each feature's members as JSON (feature-members.ts; a property of that name is renamed as
 *   above);
 * - `geo` metadata: `{"version":"1.1.0","primary_column":"geometry","columns":{"geometry":
 *   {"encoding":"WKB","geometry_types":[...],"bbox":[w,s,e,n],"covering":{"bbox":{"xmin":
 *   ["bbox","xmin"],...}}}}}` (no `crs`: OGC:CRS84; no `edges`: planar).
 * Tables -> plain Parquet, rows in input order, the same column rules (no reserved names).
 * Both: SNAPPY, row groups of `rowGroupRows` rows (fewer when their estimated input passes
 * 32 MiB), statistics on every column but `geometry` and the text columns.
 *
 * Memory: an external merge sort (sort-runs.ts) holds at most `memoryBytes` of encoded items,
 * spilling sorted runs under `tmpDir` (removed whatever happens), then merges them into the
 * writer one row group at a time; the column types are known once every item was seen, before
 * the first row group is written.
 *
 * @throws EncodeError (lib/formats/errors.ts) for an item that is not a feature (kind
 *   "features") or not an object, and for an invalid geometry (message names the item's input
 *   position); the signal's reason when aborted; the sink's or the item source's errors.
 */
import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import type { SchemaElement } from "hyparquet";
import { ParquetWriter, type ColumnSource } from "hyparquet-writer";
import type { Geometry } from "geojson";
import type { TFeature, TRow } from "@/lib/engine/types";
import { ChunkedByteWriter, yieldToEventLoop, type TAsyncByteSink } from "@/lib/formats/byte-chunks";
import { ownValue, toColumnValue } from "@/lib/formats/column-types";
import { EncodeError } from "@/lib/formats/errors";
import { BBOX_FIELDS, ColumnCollector, GEOMETRY_COLUMN, geoMetadata, planColumns, type TPlannedColumn } from "@/lib/formats/geoparquet/write";
import { columnSchemaElement, Utf8Arena } from "@/lib/formats/parquet/write";
import { GeometryStats, WkbArena, geometryToWkb } from "@/lib/formats/wkb";
import { geometryBbox } from "@/lib/geo/bbox";
import { hilbertKeyOfBbox } from "./hilbert";
import { encodeFeatureMembers, FEATURE_MEMBERS_COLUMN } from "./feature-members";
import { estimateItemBytes } from "./item-measure";
import { FrameBuffer, RunFileReader, mergeRuns, type TKeyedRecord, type TRunSource } from "./sort-runs";
import { BBOX_COLUMN, POSITION_COLUMN, LAYER_FILE_METADATA_KEY, type TLayerFileKind, type TLayerFileMetadata, type TLayerFileSummary } from "./types";

/** Default budget for the in-memory sort buffer (bytes of encoded items). */
export const DEFAULT_SORT_MEMORY_BYTES = 64 * 1024 * 1024;

/**
 * Default rows per row group. Measured on 1,000,000 synthetic points (bench/synthetic-points.ts) with
 * 2,048 / 4,096 / 8,192 / 16,384 rows: 45.1 / 44.8 / 44.7 / 44.6 bytes a point; footer 303 /
 * 152 / 78 / 40 KB (every reader reads it whole); a 1-degree box around Paris read 8,192 /
 * 12,288 / 16,384 / 32,768 items, around New York 14,336 / 16,384 / 16,384 / 32,768. 4,096
 * keeps a box read to a few row groups of ~180 KB while the footer stays ~150 bytes per
 * 1,000 points.
 */
export const DEFAULT_ROW_GROUP_ROWS = 4_096;

/** Estimated input bytes after which a row group is closed early (large geometries or strings). */
const ROW_GROUP_BYTES = 32 * 1024 * 1024;
/** Items between progress reports (and event-loop yields) while reading the input. */
const PROGRESS_EVERY = 4_096;

const CREATED_BY = "flow-api-service layer-file (hyparquet-writer 0.17)";

export interface TWriteLayerFileOptions {
  kind: TLayerFileKind;
  /** Receives the file's bytes in order (~1 MiB chunks); a returned promise is awaited (backpressure). */
  sink: TAsyncByteSink;
  /** Directory for the sort's run files (a fresh subdirectory is made and removed). */
  tmpDir: string;
  /** Budget of the in-memory sort buffer: bytes of encoded items (about 130 a point with four properties; default 64 MiB). */
  memoryBytes?: number;
  /** Rows per row group (default `DEFAULT_ROW_GROUP_ROWS`; at least 1). */
  rowGroupRows?: number;
  signal?: AbortSignal;
  /** Called every few thousand items while reading the input ("sorting") and after each row group ("writing"). */
  onProgress?: (itemsDone: number, phase: "sorting" | "writing") => void;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The float32 next to `f` (itself a float32) towards -Infinity (`down`) or +Infinity. */
function nextFloat32(f: number, down: boolean): number {
  if (f === 0) return down ? -(2 ** -149) : 2 ** -149;
  f32[0] = f;
  // float32 bits are ordered by magnitude: one step away from zero or towards it
  u32[0] += f > 0 === !down ? 1 : -1;
  return f32[0];
}

/** `value` as a float32 no greater (`down`) / no less than it, so a rounded bbox still covers. */
export function float32Outward(value: number, down: boolean): number {
  const f = Math.fround(value);
  if (down ? f > value : f < value) return nextFloat32(f, down);
  return f;
}

/**
 * The columns holding integers beyond ±(2^53 - 1), which must not be written as INT64: the
 * reader turns INT64 values into numbers only when they are safe integers (otherwise bigints,
 * which JSON cannot write and the steps do not add up), so such a column would read back as a
 * mix of numbers and bigints, and a preview holding one could not be answered at all. A number
 * that large (every double beyond 2^53 is an integer; `1e20`, or a CSV's `1e18`) makes its
 * column DOUBLE, which gives the same number back; a bigint (none of the parsers yields one,
 * lib/layers/parse/wide-integers.ts) makes it text, its exact decimal.
 */
const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER);

class WideIntegerColumns {
  private readonly doubles = new Set<string>();
  private readonly bigints = new Set<string>();

  add(values: Record<string, unknown> | null | undefined): void {
    if (!values) return;
    for (const key in values) {
      if (!Object.hasOwn(values, key)) continue;
      const v = values[key];
      if (typeof v === "number") {
        if ((v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER) && Number.isFinite(v)) this.doubles.add(key);
      } else if (typeof v === "bigint" && (v > MAX_SAFE_BIGINT || v < -MAX_SAFE_BIGINT)) this.bigints.add(key);
    }
  }

  /** `columns` with each INT64 column that holds a wide integer retyped (see class doc). */
  retype(columns: TPlannedColumn[]): TPlannedColumn[] {
    return columns.map((c): TPlannedColumn => {
      if (c.type !== "int64") return c;
      if (this.bigints.has(c.key)) return { ...c, type: "string" };
      return this.doubles.has(c.key) ? { ...c, type: "double" } : c;
    });
  }
}

function asFeature(item: unknown, seq: number): TFeature {
  const feature = item as TFeature | null;
  if (!feature || typeof feature !== "object" || feature.type !== "Feature") {
    throw new EncodeError(`item ${seq}: not a GeoJSON Feature`);
  }
  return feature;
}

function asRow(item: unknown, seq: number): TRow {
  if (!item || typeof item !== "object" || Array.isArray(item)) throw new EncodeError(`item ${seq}: not a row object`);
  return item as TRow;
}

/**
 * Writes `items` as a layer file (see module doc) and returns what it wrote.
 *
 * @param items features (`kind: "features"`) or rows (`kind: "table"`), read once, in order.
 */
export async function writeLayerFile(
  items: AsyncIterable<TFeature | TRow> | Iterable<TFeature | TRow>,
  opts: TWriteLayerFileOptions,
): Promise<TLayerFileSummary> {
  const features = opts.kind === "features";
  const { signal, onProgress } = opts;
  const budget = Math.max(1, opts.memoryBytes ?? DEFAULT_SORT_MEMORY_BYTES);
  const rowGroupRows = Math.max(1, Math.floor(opts.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS));
  const collector = new ColumnCollector([]);
  const wide = new WideIntegerColumns();

  let runDir: string | undefined;
  const runPaths: string[] = [];
  const sources: TRunSource<TFeature | TRow>[] = [];
  let buffer = new FrameBuffer<TFeature | TRow>();
  let count = 0;
  /** Whether some feature has an `id` or `bbox` member to keep (then the file has their column). */
  let hasMembers = false;

  const spill = async () => {
    runDir ??= await mkdtemp(path.join(opts.tmpDir, "layer-file-sort-"));
    const runPath = path.join(runDir, `run-${runPaths.length}`);
    runPaths.push(runPath);
    await buffer.spill(runPath, features, signal);
    buffer = new FrameBuffer();
  };

  try {
    signal?.throwIfAborted();
    // Phase 1: read everything once: column types, sort keys, runs.
    for await (const item of items) {
      signal?.throwIfAborted();
      let key = 0;
      if (features) {
        const feature = asFeature(item, count);
        collector.add(feature.properties);
        wide.add(feature.properties);
        key = hilbertKeyOfBbox(geometryBbox(feature.geometry));
        if (!hasMembers && (feature.id !== undefined || feature.bbox !== undefined)) hasMembers = encodeFeatureMembers(feature) !== null;
      } else {
        const row = asRow(item, count);
        collector.add(row);
        wide.add(row);
      }
      buffer.add(key, count, item);
      count++;
      if (buffer.bytes >= budget) await spill();
      if (count % PROGRESS_EVERY === 0) {
        onProgress?.(count, "sorting");
        await yieldToEventLoop(signal);
      }
    }

    // Phase 2: merge the runs (and the last buffer, kept in memory) into the Parquet writer.
    const blockBytes = Math.min(1 << 20, Math.max(64 << 10, Math.floor(budget / (4 * Math.max(1, runPaths.length)))));
    for (const runPath of runPaths) sources.push(await RunFileReader.open<TFeature | TRow>(runPath, blockBytes));
    sources.push(buffer.source(features));

    const reserved = features ? [GEOMETRY_COLUMN, BBOX_COLUMN, POSITION_COLUMN, ...(hasMembers ? [FEATURE_MEMBERS_COLUMN] : [])] : [];
    const columns = wide.retype(planColumns(collector, [], reserved));
    const stats = new GeometryStats();
    // geometry, bbox, input_position and, when kept, feature_members
    const fileColumns = features ? (hasMembers ? 4 : 3) : 0;
    const schema: SchemaElement[] = [{ name: "root", num_children: columns.length + fileColumns }, ...columns.map((c) => columnSchemaElement(c.name, c.type))];
    if (features) {
      schema.push({ name: GEOMETRY_COLUMN, type: "BYTE_ARRAY", repetition_type: "OPTIONAL" });
      schema.push({ name: BBOX_COLUMN, repetition_type: "OPTIONAL", num_children: 4 });
      for (const field of BBOX_FIELDS) schema.push({ name: field, type: "FLOAT", repetition_type: "REQUIRED" });
      // The layer's own order (the upload's), which results keep: the row groups are in Hilbert order.
      schema.push({ name: POSITION_COLUMN, type: "INT64", repetition_type: "REQUIRED" });
      if (hasMembers) schema.push(columnSchemaElement(FEATURE_MEMBERS_COLUMN, "string"));
    }
    const writer = new ChunkedByteWriter(opts.sink);
    const pq = new ParquetWriter({ writer, schema, createdBy: CREATED_BY });
    const text = new Utf8Arena();
    const wkb = new WkbArena();
    let rowGroups = 0;
    let written = 0;

    const writeGroup = async (group: TKeyedRecord<TFeature | TRow>[]) => {
      const records = features ? group.slice().sort((a, b) => a.seq - b.seq) : group;
      const width = columns.length + fileColumns;
      const data: unknown[][] = Array.from({ length: width }, () => new Array<unknown>(records.length));
      text.startGroup();
      for (let r = 0; r < records.length; r++) {
        const { item, seq } = records[r];
        const values = features ? (item as TFeature).properties : (item as TRow);
        for (let c = 0; c < columns.length; c++) {
          const cell = toColumnValue(columns[c].type, ownValue(values, columns[c].key));
          data[c][r] = typeof cell === "string" ? text.bytes(cell) : cell;
        }
        if (!features) continue;
        const geometry = (item as TFeature).geometry as Geometry | null | undefined;
        const box = geometryBbox(geometry);
        let bytes: Uint8Array | null = null;
        if (geometry !== null && geometry !== undefined) {
          try {
            bytes = geometryToWkb(geometry, wkb);
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            throw new EncodeError(`item ${seq}: ${reason}`, { cause: error });
          }
          stats.add(geometry, box);
        }
        data[columns.length][r] = bytes;
        data[columns.length + 2][r] = BigInt(seq);
        if (hasMembers) {
          const members = encodeFeatureMembers(item as TFeature);
          data[columns.length + 3][r] = members === null ? null : text.bytes(members);
        }
        data[columns.length + 1][r] = box && {
          xmin: float32Outward(box[0], true),
          ymin: float32Outward(box[1], true),
          xmax: float32Outward(box[2], false),
          ymax: float32Outward(box[3], false),
        };
      }
      // No min/max statistics on text columns: hyparquet-writer keeps each row group's statistics
      // until the footer, and a text min/max is a view into that group's whole text arena, so a
      // 10M-point layer kept ~1 GB of arenas alive (nothing reads text statistics here; readers
      // skip row groups by the bbox covering's numeric statistics).
      const columnData: ColumnSource[] = columns.map((c, i) => ({ name: c.name, data: data[i] as ColumnSource["data"], statistics: c.type !== "string" }));
      if (features) {
        // min/max of WKB bytes mean nothing; dictionaries rarely help geometry
        columnData.push({ name: GEOMETRY_COLUMN, data: data[columns.length] as ColumnSource["data"], encoding: "PLAIN", statistics: false });
        columnData.push({ name: BBOX_COLUMN, data: data[columns.length + 1] as ColumnSource["data"] });
        columnData.push({ name: POSITION_COLUMN, data: data[columns.length + 2] as ColumnSource["data"] });
        if (hasMembers) columnData.push({ name: FEATURE_MEMBERS_COLUMN, data: data[columns.length + 3] as ColumnSource["data"], statistics: false });
      }
      if (width > 0) {
        await pq.write({ columnData, rowGroupSize: records.length });
        rowGroups++;
      }
      written += records.length;
      onProgress?.(written, "writing");
      await yieldToEventLoop(signal);
    };

    for await (const batch of mergeRuns(sources, rowGroupRows)) {
      // a batch holds at most rowGroupRows records; close a group early when its input is large
      let start = 0;
      let bytes = 0;
      for (let i = 0; i < batch.length; i++) {
        bytes += estimateItemBytes(batch[i].item);
        if (bytes >= ROW_GROUP_BYTES && i + 1 < batch.length) {
          await writeGroup(batch.slice(start, i + 1));
          start = i + 1;
          bytes = 0;
        }
      }
      await writeGroup(start === 0 ? batch : batch.slice(start));
    }

    const renamed = Object.fromEntries(columns.filter((c) => c.name !== c.key).map((c) => [c.name, c.key]));
    const own: TLayerFileMetadata = {
      kind: opts.kind,
      ...(Object.keys(renamed).length > 0 ? { renamed } : {}),
      ...(features ? { position: POSITION_COLUMN } : {}),
      ...(hasMembers ? { members: FEATURE_MEMBERS_COLUMN } : {}),
    };
    const bbox = features ? (stats.bbox() ?? null) : null;
    const kv = [{ key: LAYER_FILE_METADATA_KEY, value: JSON.stringify(own) }];
    if (features) kv.unshift({ key: "geo", value: JSON.stringify(geoMetadata(stats, BBOX_COLUMN)) });
    pq.kvMetadata = kv;
    await pq.finish();
    return {
      kind: opts.kind,
      itemCount: count,
      bbox,
      geometryTypes: features ? stats.geometryTypes() : [],
      columns: columns.map(({ name, type }) => ({ name, type })),
      rowGroups,
      sizeBytes: writer.offset,
    };
  } finally {
    buffer = new FrameBuffer();
    await Promise.allSettled(sources.map((s) => s.close()));
    if (runDir) await rm(runDir, { recursive: true, force: true });
  }
}
