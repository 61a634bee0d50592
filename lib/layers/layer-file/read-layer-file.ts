/**
 * Reads layer files (write-layer-file.ts) from any byte source with random access (hyparquet's
 * `AsyncBuffer`, e.g. a blob store object read by ranges), one row group at a time, skipping the
 * row groups whose bbox (the row group statistics of the GeoParquet 1.1 `bbox` covering columns)
 * lies outside the box asked for, and yielding of the others only the features whose bbox meets
 * the box (the steps still test the exact geometry). A row group without covering statistics
 * (another writer) is always read; one whose bbox columns are all null (no coordinates) is
 * skipped whenever a box is given, as is a feature without coordinates. Boxes are
 * `[west, south, east, north]` in degrees, edges inclusive; west > east crosses the
 * antimeridian. Tables ignore the box.
 *
 * Items come in the engine's shapes (lib/steps/dataset.ts): features with every column in
 * `properties` (null where the cell is null) and GeoJSON geometry decoded from WKB by hyparquet
 * (a row group of plain 2D Points as a set held by column, lib/steps/point-columns.ts, whose
 * features are made when first read), or plain rows; a feature gets back its `id` and `bbox`
 * members when the file kept them (feature-members.ts: a row group holding some is read as
 * feature objects, not by column); INT64 values become numbers when they are
 * safe integers (else they stay bigints). Decoded row groups, kept by column (`TDecodedGroup`),
 * may go through a `TRowGroupCache` (row-group-cache.ts); every read makes its own items from
 * them. After the signal is aborted nothing more is cached, so abort first, then clear the cache.
 *
 * @throws the byte source's errors, hyparquet's for a file that is not Parquet, and the
 *   signal's reason when aborted.
 */
import { parquetMetadataAsync, parquetRead, type AsyncBuffer, type ColumnMetaData, type FileMetaData, type RowGroup } from "hyparquet";
import type { Geometry } from "geojson";
import { setItemPosition, setOwn, type TColumnValues } from "@/lib/steps/dataset";
import type { TFeature, TFeatureSet, TRow } from "@/lib/engine/types";
import { viewPoints, type TPointColumns } from "@/lib/steps/point-columns";
import type { TColumnType } from "@/lib/formats/column-types";
import { GEOMETRY_COLUMN, type TGeoMetadata } from "@/lib/formats/geoparquet/write";
import { geometryBbox, type TBbox } from "@/lib/geo/bbox";
import { pointColumn } from "@/lib/geo/point-column";
import { applyFeatureMembers, decodeFeatureMembers, type TFeatureMembers } from "./feature-members";
import { estimateItemBytes } from "./item-measure";
import type { TRowGroupCache } from "./row-group-cache";
import { kvJson, LAYER_FILE_METADATA_KEY } from "./types";
import type { TLayerFileColumn, TLayerFileKind, TLayerFileMetadata, TLayerFileSummary } from "./types";

/** One row group of a layer file. */
export interface TLayerFileRowGroup {
  index: number;
  /** Index of its first item in the file. */
  rowStart: number;
  rowCount: number;
  /**
   * `[xmin, ymin, xmax, ymax]` covering its features' bboxes; null when none of them has
   * coordinates; infinite when the file carries no statistics to tell. Always null for a table.
   */
  bbox: TBbox | null;
  /** Byte range of its column chunks in the file, `[byteStart, byteEnd)`. */
  byteStart: number;
  byteEnd: number;
}

/** An opened layer file: its writer's summary (`columns` by the names items carry) and row groups; `bytesRead` grows as it is read (footer included). */
export interface TLayerFile extends Omit<TLayerFileSummary, "rowGroups"> {
  rowGroups: TLayerFileRowGroup[];
  /** Bytes fetched from the source so far (footer and row groups; cache hits fetch nothing). */
  readonly bytesRead: number;
  readonly cacheKey: string | undefined;
  /** @internal the counting source, the footer and what the reader needs from it. */
  readonly source: TLayerFileSource;
}

interface TLayerFileSource {
  buffer: AsyncBuffer;
  footer: TFooterIndex;
  /** Column name in the file -> property (or row) key. */
  keyOf: Map<string, string>;
  /** The `geo` metadata's primary (WKB) column. */
  geometryColumn: string;
  /** The column of each feature's position in the layer's own order, when the file has one. */
  position: string | undefined;
  /** The column of each feature's `id` and `bbox` members, when the file has one. */
  members: string | undefined;
  cache: TRowGroupCache | undefined;
}

export interface TOpenLayerFileOptions {
  /** Identifies the file's content in the cache (e.g. the blob key and its checksum); without it nothing is cached. */
  cacheKey?: string;
  /** Where decoded row groups are kept (one per process, see row-group-cache.ts); without it nothing is cached. */
  cache?: TRowGroupCache;
}

/** Column types by Parquet physical type; any other is read as text. */
const COLUMN_TYPES: Partial<Record<string, TColumnType>> = { BOOLEAN: "boolean", INT32: "int64", INT64: "int64", FLOAT: "double", DOUBLE: "double" };

function statNumber(value: unknown): number | undefined {
  return typeof value === "number" ? value : typeof value === "bigint" ? Number(value) : undefined;
}

/** The row group's covering bbox from the statistics of the four covering columns (see TLayerFileRowGroup.bbox). */
function rowGroupBbox(group: RowGroup, covering: Record<string, string[]>): TBbox | null {
  const stat = (field: keyof typeof covering) => {
    const path = covering[field].join("\u0000");
    return group.columns.find((c) => c.meta_data?.path_in_schema.join("\u0000") === path)?.meta_data?.statistics;
  };
  const stats = [stat("xmin"), stat("ymin"), stat("xmax"), stat("ymax")];
  if (stats.every((s) => s?.null_count !== undefined && s.null_count === group.num_rows)) return null;
  const xmin = statNumber(stats[0]?.min_value ?? stats[0]?.min);
  const ymin = statNumber(stats[1]?.min_value ?? stats[1]?.min);
  const xmax = statNumber(stats[2]?.max_value ?? stats[2]?.max);
  const ymax = statNumber(stats[3]?.max_value ?? stats[3]?.max);
  return [xmin ?? -Infinity, ymin ?? -Infinity, xmax ?? Infinity, ymax ?? Infinity];
}

/**
 * The footer as the reader keeps it, held by column: each column chunk's numbers (offsets,
 * sizes, counts) in one `Float64Array` per field and its type, codec, encodings and path as
 * indexes into a short list, so a 10M-point layer's 2,442 row groups (about 29,000 chunks) are
 * a dozen objects instead of some 230,000 (a chunk, its metadata and six bigints each).
 * `parquetRead` gets the one row group it reads, made when it is read (`footerFor`);
 * statistics and encoding stats are dropped once the row groups' bboxes are read from them.
 * Why: a run process keeps up to 16 files open, outside its row-group cache's bound
 * (worker/runtime/layer-source.ts). Bench row "an opened 10M-point layer file ... heap it
 * holds": 7.4 MB of heap as chunk objects (16 such files: 118 MB of a 256 MB heap), 0.4 MB
 * by column and 1.5 MB of typed arrays outside the heap; a full collection of the process
 * took 8-11 ms longer with one such file open as objects (measured with `--expose-gc`).
 */
interface TFooterIndex {
  /** The footer without its row groups. */
  file: FileMetaData;
  /** Chunks per row group: a group's chunk `j` is at `g * width + j`. */
  width: number;
  numRows: Float64Array;
  totalByteSize: Float64Array;
  /** Per chunk. */
  fileOffset: Float64Array;
  /** Per chunk; NaN where the footer has no value (`dictionaryPageOffset`) or the chunk has no metadata (all of them). */
  numValues: Float64Array;
  uncompressedSize: Float64Array;
  compressedSize: Float64Array;
  dataPageOffset: Float64Array;
  dictionaryPageOffset: Float64Array;
  /** Per chunk, indexes into `lists` for its type, codec, encodings and path (-1: no metadata). */
  type: Int32Array;
  codec: Int32Array;
  encodings: Int32Array;
  path: Int32Array;
  lists: (string | string[])[];
}

/** The footer index of `metadata`. @throws Error when a row group lacks a column chunk (Parquet requires one per column). */
function footerIndex(metadata: FileMetaData): TFooterIndex {
  const groups = metadata.row_groups;
  const width = groups[0]?.columns.length ?? 0;
  const odd = groups.findIndex((g) => g.columns.length !== width);
  if (odd >= 0) throw new Error(`not a valid Parquet file: row group ${odd} has ${groups[odd]!.columns.length} column chunks, row group 0 has ${width}`);
  const n = groups.length * width;
  const numbers = () => new Float64Array(n).fill(NaN);
  const indexes = () => new Int32Array(n).fill(-1);
  const index: TFooterIndex = {
    file: { ...metadata, row_groups: [] },
    width,
    numRows: Float64Array.from(groups, (g) => Number(g.num_rows)),
    totalByteSize: Float64Array.from(groups, (g) => Number(g.total_byte_size)),
    fileOffset: numbers(),
    numValues: numbers(),
    uncompressedSize: numbers(),
    compressedSize: numbers(),
    dataPageOffset: numbers(),
    dictionaryPageOffset: numbers(),
    type: indexes(),
    codec: indexes(),
    encodings: indexes(),
    path: indexes(),
    lists: [],
  };
  const listIndex = new Map<string, number>();
  const listOf = (value: string | string[]) => {
    const key = typeof value === "string" ? value : `\u0001${value.join("\u0000")}`;
    let at = listIndex.get(key);
    if (at === undefined) listIndex.set(key, (at = index.lists.push(value) - 1));
    return at;
  };
  groups.forEach((group, g) => {
    group.columns.forEach((chunk, j) => {
      const at = g * width + j;
      // deprecated and unread by hyparquet, but required by Parquet: absent (some writers) as 0
      index.fileOffset[at] = Number(chunk.file_offset ?? 0);
      const meta = chunk.meta_data;
      if (!meta) return;
      index.numValues[at] = Number(meta.num_values);
      index.uncompressedSize[at] = Number(meta.total_uncompressed_size);
      index.compressedSize[at] = Number(meta.total_compressed_size);
      index.dataPageOffset[at] = Number(meta.data_page_offset);
      if (meta.dictionary_page_offset !== undefined) index.dictionaryPageOffset[at] = Number(meta.dictionary_page_offset);
      index.type[at] = listOf(meta.type);
      index.codec[at] = listOf(meta.codec);
      index.encodings[at] = listOf(meta.encodings);
      index.path[at] = listOf(meta.path_in_schema);
    });
  });
  return index;
}

/** The footer `parquetRead` needs to read row group `g` alone (its rows are then `0` to its `num_rows`). */
function footerFor(index: TFooterIndex, g: number): FileMetaData {
  const big = (value: number) => BigInt(value);
  const columns = Array.from({ length: index.width }, (_, j): RowGroup["columns"][number] => {
    const at = g * index.width + j;
    const chunk = { file_offset: big(index.fileOffset[at]) };
    if (index.type[at] < 0) return chunk;
    const dictionary = index.dictionaryPageOffset[at];
    return {
      ...chunk,
      meta_data: {
        type: index.lists[index.type[at]] as ColumnMetaData["type"],
        encodings: index.lists[index.encodings[at]] as ColumnMetaData["encodings"],
        path_in_schema: index.lists[index.path[at]] as string[],
        codec: index.lists[index.codec[at]] as ColumnMetaData["codec"],
        num_values: big(index.numValues[at]),
        total_uncompressed_size: big(index.uncompressedSize[at]),
        total_compressed_size: big(index.compressedSize[at]),
        data_page_offset: big(index.dataPageOffset[at]),
        ...(Number.isNaN(dictionary) ? {} : { dictionary_page_offset: big(dictionary) }),
      },
    };
  });
  const numRows = big(index.numRows[g]);
  return { ...index.file, num_rows: numRows, row_groups: [{ num_rows: numRows, total_byte_size: big(index.totalByteSize[g]), columns }] };
}

/** Opens a layer file: reads its footer once and describes it (see module doc). */
export async function openLayerFile(file: AsyncBuffer, opts: TOpenLayerFileOptions = {}): Promise<TLayerFile> {
  let bytesRead = 0;
  const buffer: AsyncBuffer = {
    byteLength: file.byteLength,
    slice(start, end) {
      bytesRead += (end ?? file.byteLength) - start;
      return file.slice(start, end);
    },
  };
  const metadata = await parquetMetadataAsync(buffer);
  const own = kvJson<TLayerFileMetadata>(metadata, LAYER_FILE_METADATA_KEY);
  const geo = kvJson<Partial<TGeoMetadata>>(metadata, "geo");
  const kind: TLayerFileKind = own?.kind ?? (geo ? "features" : "table");
  const primary = geo?.primary_column ?? GEOMETRY_COLUMN;
  const geoColumn = geo?.columns?.[primary];
  const covering = geoColumn?.covering?.bbox;

  // top-level columns only: a struct's children are skipped with it
  const keyOf = new Map<string, string>();
  const columns: TLayerFileColumn[] = [];
  const position = kind === "features" && typeof own?.position === "string" ? own.position : undefined;
  const members = kind === "features" && typeof own?.members === "string" ? own.members : undefined;
  const skip = new Set(
    kind === "features" ? [primary, ...(covering ? [covering.xmin[0]] : []), ...(position ? [position] : []), ...(members ? [members] : [])] : [],
  );
  for (let i = 1; i < metadata.schema.length; i++) {
    const element = metadata.schema[i];
    if (element.num_children) {
      i += element.num_children;
      continue;
    }
    if (skip.has(element.name)) continue;
    // own keys only: a column may be called "__proto__" or "constructor"
    const renamed = own?.renamed && Object.hasOwn(own.renamed, element.name) ? own.renamed[element.name] : undefined;
    const key = typeof renamed === "string" ? renamed : element.name;
    keyOf.set(element.name, key);
    columns.push({ name: key, type: COLUMN_TYPES[element.type ?? ""] ?? "string" });
  }

  let rowStart = 0;
  const rowGroups = metadata.row_groups.map((group, index): TLayerFileRowGroup => {
    let byteStart = Infinity;
    let byteEnd = 0;
    for (const chunk of group.columns) {
      const meta = chunk.meta_data;
      if (!meta) continue;
      const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
      byteStart = Math.min(byteStart, start);
      byteEnd = Math.max(byteEnd, start + Number(meta.total_compressed_size));
    }
    const rowCount = Number(group.num_rows);
    const described: TLayerFileRowGroup = {
      index,
      rowStart,
      rowCount,
      bbox: kind === "features" ? (covering ? rowGroupBbox(group, covering) : [-Infinity, -Infinity, Infinity, Infinity]) : null,
      byteStart: Number.isFinite(byteStart) ? byteStart : 0,
      byteEnd,
    };
    rowStart += rowCount;
    return described;
  });

  const bbox = geoColumn?.bbox?.length === 4 ? (geoColumn.bbox as TBbox) : null;
  return {
    kind,
    itemCount: Number(metadata.num_rows),
    bbox: kind === "features" ? bbox : null,
    geometryTypes: kind === "features" ? (geoColumn?.geometry_types ?? []) : [],
    columns,
    rowGroups,
    sizeBytes: file.byteLength,
    get bytesRead() {
      return bytesRead;
    },
    cacheKey: opts.cacheKey,
    source: {
      buffer,
      footer: footerIndex(metadata),
      keyOf,
      geometryColumn: primary,
      position,
      members,
      cache: opts.cacheKey !== undefined ? opts.cache : undefined,
    },
  };
}

/** True when a row group's bbox may hold something in `box` (edges inclusive; west > east crosses the antimeridian). */
export function bboxIntersects(group: TBbox | null, box: TBbox): boolean {
  return group !== null && meets(group[0], group[1], group[2], group[3], box);
}

/** `bboxIntersects` of the box `[xmin, ymin, xmax, ymax]`; false when it is NaN (no coordinates). */
function meets(xmin: number, ymin: number, xmax: number, ymax: number, box: TBbox): boolean {
  // by index: destructuring made an iterator per call here (2,442 calls for a box read of the 10M layer)
  const w = box[0];
  const e = box[2];
  if (!(ymin <= box[3] && ymax >= box[1])) return false;
  return w <= e ? xmin <= e && xmax >= w : xmax >= w || xmin <= e;
}

/**
 * Indices of the points (`[x0, y0, x1, y1, ...]`) that lie in `box`, as `meets` tells, in
 * order; null when all do. Counted first, then noted in an array of that length (no array as
 * long as the group). The test takes a point's index, never its coordinates: a call that is not
 * inlined boxes its number arguments, which cost 1.8 MB of garbage a run on bench "data"'s
 * 1-degree box read (an index is a small integer, which is never boxed).
 */
function pointsIn(points: Float64Array, box: TBbox): Uint32Array | null {
  const [w, s, e, n] = box;
  const at = (r: number) => {
    const x = points[2 * r]!;
    const y = points[2 * r + 1]!;
    return y <= n && y >= s && (w <= e ? x <= e && x >= w : x >= w || x <= e);
  };
  let count = 0;
  for (let r = 0; 2 * r < points.length; r++) if (at(r)) count++;
  if (2 * count === points.length) return null;
  const hits = new Uint32Array(count);
  for (let r = 0, i = 0; i < count; r++) if (at(r)) hits[i++] = r;
  return hits;
}

/** The row groups `readLayerBatches` reads for `box` (all of them for null or a table). */
export function rowGroupsFor(file: TLayerFile, box: TBbox | null): TLayerFileRowGroup[] {
  if (box === null || file.kind === "table") return file.rowGroups;
  return file.rowGroups.filter((g) => bboxIntersects(g.bbox, box));
}

function fromInt64(value: unknown): unknown {
  if (typeof value !== "bigint") return value;
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

/**
 * The cells of column `c` of `rows`: a `Float64Array` when every one is a number (lib/steps/dataset.ts
 * `TColumnValues`), else as they are. Why: the steps copy the columns of the rows they keep, and
 * a `Float64Array`'s bytes lie outside V8's heap, which a young-generation collection neither
 * fills nor scans (bench "data", the 1-degree `cities-in-area` row on the 10M layer: two of its
 * four columns, copied by each step).
 */
function propertyCells(rows: unknown[][], c: number): TColumnValues {
  const cells = rows.map((row) => fromInt64(row[c]));
  return cells.every((cell) => typeof cell === "number") ? Float64Array.from(cells as number[]) : cells;
}

export interface TReadLayerBatchesOptions {
  signal?: AbortSignal;
  /** Property (or row) keys to read; unknown ones are ignored; default all. A feature's geometry is always read. */
  columns?: string[];
  /** Only these row groups (by index, of those that meet `box`): a preview's sample. */
  rowGroups?: readonly number[];
}

/**
 * A decoded row group as the cache keeps it: by column, as Parquet stores it, so a read makes
 * fresh items of only the rows it yields (a box read of a dense layer keeps about a third of
 * the rows of the row groups it reads) and the cache holds no object per item. Fresh items are
 * also laid out together in the heap, where the steps and writers walk them in order: cached
 * items, scattered over the old generation, took the GeoJSON writer twice as long (bench
 * "data", the 1-degree `cities-in-area` row). Plain 2D points are read as a view of the
 * group's columns instead (lib/steps/point-columns.ts): no item, and no copy, at all.
 */
interface TDecodedGroup {
  length: number;
  /** The cells of each read property column (or row column), in `propertyColumns` order (`propertyCells`). */
  values: TColumnValues[];
  /** Features: each one's geometry, or null when `points` holds them all. */
  geometry: (Geometry | null)[] | null;
  /** Features: x, y of each one when all are plain 2D Points (lib/geo/point-column.ts). */
  points: Float64Array | null;
  /** Features without `points`: each one's bbox (xmin, ymin, xmax, ymax; NaN without coordinates). */
  boxes: Float64Array | null;
  /** Features: each one's position in the layer's own order, when the file has them. */
  positions: Float64Array | null;
  /** Features: each one's `id` and `bbox` members (null: none), when some feature of the group has one. */
  members: (TFeatureMembers | null)[] | null;
}

/** Each geometry's bbox in turn (NaN for one without coordinates). */
function boxColumn(geometries: (Geometry | null)[]): Float64Array {
  const boxes = new Float64Array(geometries.length * 4).fill(NaN);
  for (let i = 0; i < geometries.length; i++) {
    const b = geometryBbox(geometries[i]);
    if (b) boxes.set(b, 4 * i);
  }
  return boxes;
}

/** Estimated heap bytes of a decoded row group (the cache's bound; item-measure.ts). */
function groupBytes(group: TDecodedGroup): number {
  let bytes = 8 * (group.points?.length ?? 0) + 8 * (group.boxes?.length ?? 0) + 8 * (group.positions?.length ?? 0);
  for (const column of group.values) for (const cell of column) bytes += 8 + estimateItemBytes(cell);
  for (const g of group.geometry ?? []) bytes += 8 + estimateItemBytes(g);
  for (const m of group.members ?? []) bytes += 8 + estimateItemBytes(m);
  return bytes;
}

/**
 * Yields one batch per row group that may intersect `box` (all when null), in file order:
 * features as a `TFeatureSet` (layer files of kind "features") or rows as records (kind
 * "table"); with a box, a batch holds only the features whose bbox meets it. Items are the
 * caller's own, but a geometry other than a plain 2D Point is shared with the cache, and so are
 * the columns of points held by column (a view of the group's rows, lib/steps/point-columns.ts):
 * do not modify them. See the module doc for what is decoded how.
 */
export async function* readLayerBatches(file: TLayerFile, box: TBbox | null, opts: TReadLayerBatchesOptions = {}): AsyncGenerator<TFeatureSet | TRow[]> {
  const { buffer, footer, keyOf, geometryColumn, position, members, cache } = file.source;
  const wanted = opts.columns ? new Set(opts.columns) : undefined;
  const propertyColumns = [...keyOf].filter(([, key]) => !wanted || wanted.has(key));
  const features = file.kind === "features";
  const readColumns = [
    ...propertyColumns.map(([name]) => name),
    ...(features ? [geometryColumn] : []),
    ...(features && position ? [position] : []),
    ...(features && members ? [members] : []),
  ];
  const membersAt = propertyColumns.length + 1 + (position ? 1 : 0);
  const columnsKey = wanted ? propertyColumns.map(([name]) => name).join("\u0000") : "*";

  const load = async (group: TLayerFileRowGroup): Promise<TDecodedGroup> => {
    const key = `${file.cacheKey}\u0001${group.index}\u0001${columnsKey}`;
    const cached = cache?.get<TDecodedGroup>(key);
    if (cached) return cached;
    let rows: unknown[][] = [];
    await parquetRead({
      file: buffer,
      metadata: footerFor(footer, group.index),
      columns: readColumns,
      rowStart: 0,
      rowEnd: group.rowCount,
      onComplete: (result) => {
        rows = result;
      },
    });
    opts.signal?.throwIfAborted();
    const values = propertyColumns.map((_, c) => propertyCells(rows, c));
    const geometries = features ? rows.map((row) => (row[propertyColumns.length] as Geometry | undefined) ?? null) : null;
    const kept = features && members ? rows.map((row) => decodeFeatureMembers(row[membersAt])) : null;
    const withMembers = kept?.some((m) => m !== null) ? kept : null;
    // points held by column carry no members: a group with some is read as feature objects
    const points = (geometries && !withMembers && pointColumn(geometries)) || null;
    const decoded: TDecodedGroup = {
      length: rows.length,
      values,
      geometry: points ? null : geometries,
      points,
      boxes: geometries && !points ? boxColumn(geometries) : null,
      positions: features && position ? Float64Array.from(rows, (row) => Number(row[propertyColumns.length + 1])) : null,
      members: withMembers,
    };
    cache?.set(key, decoded, groupBytes(decoded));
    return decoded;
  };

  const keys = propertyColumns.map(([, key]) => key);

  /**
   * The rows of `group` (with a box: the features whose bbox meets it): plain 2D points held by
   * column, as a view of the cached columns (lib/steps/point-columns.ts), other features as fresh
   * objects, rows as fresh records.
   */
  const itemsOf = (group: TDecodedGroup): TFeatureSet | TRow[] => {
    const { values, geometry, points, boxes, positions, members: kept } = group;
    const record = (r: number) => {
      const record: Record<string, unknown> = {};
      for (let c = 0; c < propertyColumns.length; c++) setOwn(record, propertyColumns[c][1], values[c][r]);
      return record;
    };
    if (!features) return Array.from({ length: group.length }, (_, r) => record(r));
    if (points) {
      // a view of the group's columns, shared with the cache (they are never written to)
      const all: TPointColumns = { props: { kind: "rows", columns: keys, values, length: group.length }, points, positions };
      return viewPoints(all, box ? pointsIn(points, box) : null);
    }
    const out: TFeature[] = [];
    for (let r = 0; r < group.length; r++) {
      if (box && !meets(boxes![4 * r], boxes![4 * r + 1], boxes![4 * r + 2], boxes![4 * r + 3], box)) continue;
      const feature: TFeature = { type: "Feature", geometry: geometry![r], properties: record(r) };
      if (kept) applyFeatureMembers(feature, kept[r]!);
      if (positions) setItemPosition(feature, positions[r]);
      out.push(feature);
    }
    return { kind: "features", features: out };
  };

  // One row group ahead: its bytes are fetched while the caller works on the current one (a
  // blob store answers each range after a round trip). A read-ahead left behind when the caller
  // stops early settles on its own; its error, if any, is dropped with it.
  const only = opts.rowGroups ? new Set(opts.rowGroups) : undefined;
  const groups = only ? rowGroupsFor(file, box).filter((g) => only.has(g.index)) : rowGroupsFor(file, box);
  let ahead = groups.length > 0 ? load(groups[0]) : undefined;
  for (let i = 0; i < groups.length; i++) {
    opts.signal?.throwIfAborted();
    const current = ahead!;
    ahead = i + 1 < groups.length ? load(groups[i + 1]) : undefined;
    ahead?.catch(() => {});
    yield itemsOf(await current);
  }
}
