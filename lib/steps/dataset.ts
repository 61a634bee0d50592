/**
 * Data shapes that flow between steps (lib/steps) and out of the engine (lib/engine). The
 * result writers (`lib/formats`), the worker and the public API read them through
 * lib/engine/types.ts.
 *
 * - A layer is a list of RFC 7946 GeoJSON features (WGS 84 lon/lat, `geometry` may be null).
 * - A table is typed columns: an ordered column list and, for each column, its cells (a
 *   `Float64Array` for a column of numbers only, else an array of JSON scalars, `undefined` for
 *   a cell the row does not have). A step that works on one record per row reads them with
 *   `tableRows` and builds its output with `tableFromRows`; a pair step (distance_pairs) builds
 *   its columns with `take` from index arrays.
 * - An area is one GeoJSON Polygon geometry.
 * - A layer read from a file is a `TLayerSource`: its items come batch by batch, restricted to a
 *   box (the engine plans the box and reads it lazily, lib/engine/run-flow.ts).
 */
import type { Feature, Geometry, Polygon } from "geojson";

/** One feature: geometry may be null (RFC 7946 §3.2), properties always an object. */
export type TFeature = Feature<Geometry | null, Record<string, unknown>>;

/** One table row (a record), as `tableRows` derives it and a caller or a layer file hands it over. */
export type TRow = Record<string, unknown>;

/** The cells of one table column, one per row. */
export type TColumnValues = Float64Array | unknown[];

/** A collection of features (a layer input, a layer step output, a layer result). */
export interface TFeatureSet {
  kind: "features";
  features: TFeature[];
}

/** A table (a table input, a table step output, a table result). `columns` fixes the order; `values[c]` are the cells of `columns[c]`. */
export interface TTable {
  kind: "rows";
  columns: string[];
  values: TColumnValues[];
  /** Number of rows: the length of every column. */
  length: number;
}

/** A table of `rows` with `columns` (a row's own fields only; a field it lacks is an `undefined` cell, keys not in `columns` are dropped). */
export function tableFromRows(columns: string[], rows: readonly TRow[]): TTable {
  const values = columns.map((name) => {
    const cells = new Array<unknown>(rows.length);
    for (let r = 0; r < rows.length; r++) cells[r] = Object.hasOwn(rows[r]!, name) ? rows[r]![name] : undefined;
    return cells;
  });
  return { kind: "rows", columns, values, length: rows.length };
}

/** Sets `record[key]` as an own property, even for a key "__proto__" (a column of an upload may be named so). */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}

/**
 * Rows `start` to `end` (exclusive) of `table` as records, for a step that needs one record per
 * row: each a new object with the row's fields in column order (an `undefined` cell left out;
 * `__proto__` kept as an own field).
 */
export function tableRows(table: TTable, start = 0, end = table.length): TRow[] {
  const { columns, values } = table;
  const rows = new Array<TRow>(Math.max(0, Math.min(end, table.length) - start));
  for (let r = 0; r < rows.length; r++) {
    const row: TRow = {};
    for (let c = 0; c < columns.length; c++) {
      const v = values[c]![start + r];
      if (v !== undefined) setOwn(row, columns[c]!, v);
    }
    rows[r] = row;
  }
  return rows;
}

/** The cells of column `name` of `table` (undefined when it has no such column). */
export function columnValues(table: TTable, name: string): TColumnValues | undefined {
  const c = table.columns.indexOf(name);
  return c < 0 ? undefined : table.values[c];
}

/** `column[index[i]]` for each `i`: a column of the rows `index` names (a typed column stays typed). */
export function take(column: TColumnValues, index: ArrayLike<number>): TColumnValues {
  const out = column instanceof Float64Array ? new Float64Array(index.length) : new Array<unknown>(index.length);
  for (let i = 0; i < index.length; i++) out[i] = column[index[i]!];
  return out;
}

/** The rows of `table` that `index` names, in that order. */
export function takeRows(table: TTable, index: ArrayLike<number>): TTable {
  return { kind: "rows", columns: table.columns, values: table.values.map((v) => take(v, index)), length: index.length };
}

/** Rows `start` (>= 0) to `end` (exclusive) of `table`. */
export function sliceTable(table: TTable, start: number, end = table.length): TTable {
  const length = Math.max(0, Math.min(end, table.length) - start);
  return { kind: "rows", columns: table.columns, values: table.values.map((v) => v.slice(start, start + length)), length };
}

/** `table` with exactly `columns`, in that order: a column it lacks is all `undefined`. */
export function withColumns(table: TTable, columns: string[]): TTable {
  const values = columns.map((name) => columnValues(table, name) ?? new Array<unknown>(table.length).fill(undefined));
  return { kind: "rows", columns, values, length: table.length };
}

/** The cells of `parts` one after another: a `Float64Array` when every part is one (numbers only), else an array. */
export function concatColumn(parts: readonly TColumnValues[]): TColumnValues {
  if (parts.length > 0 && parts.every((p) => p instanceof Float64Array)) {
    const cells = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      cells.set(p as Float64Array, at);
      at += p.length;
    }
    return cells;
  }
  // by index: `Array.from` or spreading would make an iterator result per cell
  const cells: unknown[] = [];
  for (const p of parts) for (let r = 0; r < p.length; r++) cells.push(p[r]);
  return cells;
}

/** The rows of `tables` one after another, with `columns` (a table's missing column: `undefined` cells). */
export function concatTables(columns: string[], tables: readonly TTable[]): TTable {
  const parts = tables.map((t) => withColumns(t, columns).values);
  const values = columns.map((_, c) => concatColumn(parts.map((p) => p[c]!)));
  return { kind: "rows", columns, values, length: tables.reduce((n, t) => n + t.length, 0) };
}

/** An area input: a single polygon. */
export interface TArea {
  kind: "area";
  geometry: Polygon;
}

export type TDataset = TFeatureSet | TTable | TArea;

/**
 * A lon/lat box in WGS 84 degrees, west <= east: no box wraps the antimeridian (a box that would
 * covers -180..180). A geometry "meets" a box when its own box (Turf `bbox`) intersects it,
 * edges included.
 */
export type TBox = [west: number, south: number, east: number, north: number];

/**
 * A layer (or table) input read from a file (GeoParquet, row group by row group) instead of
 * handed over whole: the engine reads it lazily, batch by batch, only within the box it planned
 * for it (lib/engine/plan-boxes.ts).
 */
export interface TLayerSource {
  kind: "layer-source";
  of: "features" | "rows";
  itemCount: number;
  /** The layer's extent (null: empty, or a table). */
  bbox: TBox | null;
  /** `of: "rows"`: the table's columns in order. */
  columns?: string[];
  /**
   * Batches of items whose box MAY meet `box` (null = all items), in file order (the layer's
   * order: a restricted read is a subsequence of the whole one): features as a set (a layer
   * file's points held by column, lib/steps/point-columns.ts) or a list, rows as a list. May be
   * iterated many times.
   */
  batches(box: TBox | null, signal?: AbortSignal): AsyncIterable<TFeatureSet | TFeature[] | TRow[]>;
}

/**
 * A feature's position in its layer's own order, for features read from a layer file, which
 * keeps them in another order (along a Hilbert curve, so that a box is a few row groups) and
 * stores each one's position in the uploaded file (lib/layers/layer-file). Set by the reader;
 * carried to the features a step derives from one (`withProps`, `withGeometry`); the engine
 * restores the layer's order when it materialises a dataset read from a file, so results come in
 * the same order as from the layer in memory.
 *
 * Kept on the feature object itself as a private field, added to an object made elsewhere by a
 * base class whose constructor returns that object (the "return override" of ES2022 class
 * fields). A private field is invisible to JSON, `Object.keys`, spreads, structured clones
 * (`v8.serialize`) and test equality, and costs what an ordinary property store costs: the
 * non-enumerable symbol property it replaces (`Object.defineProperty`) took about 1.8 ms per
 * 12,000 features, set once by the reader and again by each step deriving features (bench row
 * `cities-in-area, 1-degree box, 10M-point layer`). A WeakMap would hold an entry per cached
 * feature (~40 MB for a 1-degree read of a 10M-point layer). Features must be extensible (the
 * reader's and the steps' own objects are).
 */
class ReturnsItsArgument {
  constructor(item: object) {
    // the return override: a subclass's private field is added to `item`, not to a new object
    return item;
  }
}

class LayerPosition extends ReturnsItsArgument {
  #position: number;

  private constructor(item: object, position: number) {
    super(item);
    this.#position = position;
  }

  static set(item: object, position: number): void {
    if (#position in item) (item as LayerPosition).#position = position;
    else new LayerPosition(item, position);
  }

  static get(item: object): number | undefined {
    return #position in item ? (item as LayerPosition).#position : undefined;
  }
}

export function setItemPosition(item: TFeature, position: number): void {
  LayerPosition.set(item, position);
}

export function itemPosition(item: object): number | undefined {
  return LayerPosition.get(item);
}

/** The indexes a packed sort key of `layerOrder` can hold: its low 24 bits. */
const INDEX_SPAN = 2 ** 24;
/** The positions it can hold beside them, within a double's 53 bits of integer: below 2^29. */
const POSITION_SPAN = 2 ** 53 / INDEX_SPAN;

/**
 * Indexes `0 .. positions.length - 1` in the layer's own order: by position, equal positions in
 * index order. Positions are whole numbers (a feature's row in its layer). While they and the
 * indexes fit in a double's 53 bits (positions below 2^29, up to 2^24 indexes: every layer the
 * service takes), each index is sorted as the key `position * 2^24 + index` by the typed array's
 * own numeric sort, in `keys` (by default a new array; the caller's own, `positions` itself
 * allowed, makes none), which is returned holding the indexes; otherwise by a comparator, in a
 * new array. On the 11,851 points of bench row "cities-in-area, 1-degree box, 10M-point layer"
 * the keys take 1.1-1.7 ms, the comparator 2.7.
 */
export function layerOrder(positions: Float64Array, keys = new Float64Array(positions.length)): Float64Array | Uint32Array {
  const n = positions.length;
  let packable = n <= INDEX_SPAN;
  for (let i = 0; i < n && packable; i++) packable = Number.isInteger(positions[i]) && positions[i]! >= 0 && positions[i]! < POSITION_SPAN;
  if (!packable) {
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    return order.sort((a, b) => positions[a]! - positions[b]! || a - b);
  }
  for (let i = 0; i < n; i++) keys[i] = positions[i]! * INDEX_SPAN + i;
  keys.sort();
  for (let i = 0; i < n; i++) keys[i] = keys[i]! % INDEX_SPAN;
  return keys;
}

/** Gives `to` (a feature derived from `from`, made by the step) the position of `from`, if it has one. */
export function carryItemPosition(from: object, to: object): void {
  const p = LayerPosition.get(from);
  if (p !== undefined) LayerPosition.set(to, p);
}
