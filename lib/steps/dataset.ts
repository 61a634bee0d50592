/**
 * Data shapes that flow between steps (lib/steps) and out of the engine (lib/engine). The
 * result writers (`lib/formats`), the worker and the public API read them through
 * lib/engine/types.ts.
 *
 * - A layer is a list of RFC 7946 GeoJSON features (WGS 84 lon/lat, `geometry` may be null).
 * - A table is a list of plain rows (objects of JSON scalars) with an ordered column list.
 * - An area is one GeoJSON Polygon geometry.
 * - A layer read from a file is a `TLayerSource`: its items come batch by batch, restricted to a
 *   box (the engine plans the box and reads it lazily, lib/engine/run-flow.ts).
 */
import type { Feature, Geometry, Polygon } from "geojson";

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
  rows: TRow[];
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
