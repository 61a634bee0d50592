/**
 * Data shapes that flow between steps (lib/steps) and out of the engine (lib/engine). The
 * result writers (`lib/formats`), the worker and the public API read them through
 * lib/engine/types.ts.
 *
 * - A layer is a list of RFC 7946 GeoJSON features (WGS 84 lon/lat, `geometry` may be null).
 * - A table is a list of plain rows (objects of JSON scalars) with an ordered column list; a
 *   large one may be lazy (`lazyTable`), its rows made when they are read.
 * - An area is one GeoJSON Polygon geometry.
 * - A layer read from a file is a `TLayerSource`: its items come batch by batch, restricted to a
 *   box (the engine plans the box and reads it lazily, lib/engine/run-flow.ts).
 */
import type { Feature, Geometry, Polygon } from "geojson";

/** A JSON scalar as it may appear in a row or in feature properties. */
export type TScalar = string | number | boolean | null;

/** One feature: geometry may be null (RFC 7946 §3.2), properties always an object. */
export type TFeature = Feature<Geometry | null, Record<string, unknown>>;

/** One table row. */
export type TRow = Record<string, unknown>;

/** A collection of features (a layer input, a layer step output, a layer result). */
export interface TFeatureSet {
  kind: "features";
  features: TFeature[];
}

/** A table (a table input, a table step output, a table result). `columns` fixes the order. */
export interface TTable {
  kind: "rows";
  columns: string[];
  /** Every row. On a table made by `lazyTable`, made on first use and then kept. */
  rows: TRow[];
  /** On a table made by `lazyTable` only: its rows one at a time (see `tableRows`). */
  lazy?: TRowSource;
}

/** `count` rows, row `i` made by `rowAt(i)` (a fresh object each call, equal for equal `i`). */
export interface TRowSource {
  count: number;
  rowAt: (i: number) => TRow;
  /**
   * Row `i` as `rowAt(i)` gives it, but valid only until the next call: the same object may be
   * refilled (no object made per row). For one reader at a time that is done with a row
   * before it asks for the next (the result writers, which encode one file after another).
   */
  view?: (i: number) => TRow;
  /**
   * Every column's values without rows (for the CSV writer), where the table has them: column
   * name -> `TGather`. Row i's value of a column is what `rowAt(i)` holds under that name.
   */
  gathers?: ReadonlyMap<string, TGather>;
}

/**
 * A column as a gather: row i holds `valueAt(index[i])` (an item of a smaller list, e.g. the
 * target city of a match: `size` items, each read as often as rows point at it), or
 * `numbers[i]` itself. `valueAt(j)` depends only on (`of`, `name`, j): while `of` (the item
 * list, e.g. a cached layer's features) lives, a reader may keep what it made of the values.
 */
export type TGather = TIndexedGather | { numbers: Float64Array };
export type TIndexedGather = { index: Int32Array; size: number; valueAt: (j: number) => unknown; of: object; name: string };

/**
 * A table kept in a compact form and made into row objects only where they are needed: by a
 * step that reads `rows` (all of them, once), or one at a time by a reader that goes through
 * them once (`tableRows`: the result writers), so no row outlives its use. Why: the 242,168
 * matches of a nearby-cities run (5,000 places, 30 km) as row objects lived through the run and
 * its files, and the collector moved them from the young generation to the old one; as a pair
 * list they are three typed arrays of 16 bytes a row (`distance_pairs`). Measured in one
 * process, runs alternating, medians of 10: engine + CSV + GeoJSON 621 -> 519 ms.
 */
export function lazyTable(columns: string[], source: TRowSource): TTable {
  let rows: TRow[] | undefined;
  const table: TTable = {
    kind: "rows",
    columns,
    get rows() {
      if (!rows) {
        rows = new Array<TRow>(source.count);
        for (let i = 0; i < source.count; i++) rows[i] = source.rowAt(i);
      }
      return rows;
    },
  };
  // Not enumerable: a copy (`{...table}`), JSON and deep equality see a plain table.
  return Object.defineProperty(table, "lazy", { value: source, enumerable: false });
}

/** The same rows under other `columns` (an order, a subset): a lazy table stays lazy, where a copy (`{...table}`) would make its rows. */
export function withColumns(table: TTable, columns: string[]): TTable {
  return table.lazy ? lazyTable(columns, table.lazy) : { kind: "rows", columns, rows: table.rows };
}

/** A table's rows one at a time: a lazy table's without making them all (see `lazyTable`), or the `rows` array's. */
export function tableRows(table: TTable): TRowSource {
  if (table.lazy) return table.lazy;
  const rows = table.rows;
  return { count: rows.length, rowAt: (i) => rows[i]! };
}

/**
 * `tableRows` for one reader that is done with each row before it asks for the next (the result
 * writers): `rowAt` is the source's `view` (one refilled row) where it has one.
 */
export function rowsOnce(table: TTable): TRowSource {
  const rows = tableRows(table);
  return rows.view ? { ...rows, rowAt: rows.view } : rows;
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
  /** `of: "rows"`: the table's columns in order (default: the rows' keys in first-seen order). */
  columns?: string[];
  /**
   * Batches of items whose box MAY meet `box` (null = all items), in file order (the layer's
   * order: a restricted read is a subsequence of the whole one). May be iterated many times.
   */
  batches(box: TBox | null, signal?: AbortSignal): AsyncIterable<TFeature[] | TRow[]>;
}

/**
 * A feature's position in its layer's own order, for features read from a layer file, which
 * keeps them in another order (along a Hilbert curve, so that a box is a few row groups) and
 * stores each one's position in the uploaded file (lib/layers/layer-file). Set by the reader;
 * carried to the features a step derives from one (`withProps`, `withGeometry`); the engine
 * restores the layer's order when it materialises a dataset read from a file, so results come in
 * the same order as from the layer in memory. Kept on the object as a non-enumerable symbol
 * property, which JSON, `Object.keys`, spreads, structured clones and test equality all leave
 * out; a WeakMap beside the objects (as before) held an entry per cached feature, and its
 * ephemeron table cost a 1-degree read of a 10M-point layer ~40 MB and ~5 ms of CPU per run.
 */
const POSITION = Symbol("layer position");

export function setItemPosition(item: TFeature, position: number): void {
  Object.defineProperty(item, POSITION, { value: position, writable: true });
}

export function itemPosition(item: object): number | undefined {
  return (item as { [POSITION]?: number })[POSITION];
}

/** Gives `to` the position of `from` (a feature derived from another). */
export function carryItemPosition(from: object, to: object): void {
  const p = (from as { [POSITION]?: number })[POSITION];
  if (p !== undefined) Object.defineProperty(to, POSITION, { value: p, writable: true });
}
