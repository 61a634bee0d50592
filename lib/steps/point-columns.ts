/**
 * Point features held by column: a layer of plain 2D Points read from a layer file, kept as
 * its columns (x, y, each property's cells, each feature's position in its layer) while it goes
 * through the steps that work on columns (filter, spatial_filter, select, aggregate) and into the
 * writers that read them (GeoJSON, the lossless copy), instead of one object per feature.
 *
 * Why: a box read of a dense layer holds its features from the reader to the writers, long
 * enough for V8 to move them to its old generation, whose collections then cost the run process
 * more than the steps' own work (bench "data", the 1-degree `cities-in-area` row on the 10M-point
 * layer: 11,851 features, a collection of the old generation every two or three runs). Columns
 * are a few arrays per batch whatever the number of features.
 *
 * Such a set is an ordinary `TFeatureSet` to everything else: its `features` are made the first
 * time anyone reads them (each `{type: "Feature", geometry: {type: "Point", coordinates: [x, y]},
 * properties}` with every property key in order, `undefined` cells included, and its layer
 * position, as the reader made them), and kept. A step or writer that knows columns asks
 * `pointColumnsOf` first; any other reads `features`, so every step and format works on either.
 *
 * A set may hold only some rows of its columns (`pointFeatures(cols, rows)`: a selection vector,
 * as in column engines such as DuckDB's): the layer reader's box reads over its cached row
 * groups, and what filter and spatial_filter keep of them. The steps that read by row
 * (`pointRowsOf`: filter, spatial_filter, select, spatial_join, the engine gathering a layer's
 * batches) go through `rows` and copy nothing; `pointColumnsOf` gives any other reader the rows
 * taken into columns of their own (once, kept). Why: each copy of a box read's columns is new
 * `ArrayBuffer` bytes, and those, not short-lived heap objects, are what made V8 collect the run
 * process's old generation (bench "data", the 1-degree `cities-in-area` row on the 10M layer:
 * 4 MB more `ArrayBuffer`s a run made a collection come every second run instead of every
 * fourth or fifth; as many more bytes of heap objects changed nothing). A set's columns are
 * never written to, so several sets, and the reader's cache, may share them.
 */
import type { TDataset, TFeature, TFeatureSet, TTable } from "@/lib/steps/dataset";
import { setItemPosition, setOwn, takeRows, type TColumnValues } from "@/lib/steps/dataset";

/** A feature set's columns (see the module doc). */
export interface TPointColumns {
  /** The properties: every feature has every key of `columns`, in that order; `values[c]` are the cells of `columns[c]`. */
  props: TTable;
  /** x, y of each feature in turn. */
  points: Float64Array;
  /** Each feature's position in its layer's own order (lib/steps/dataset.ts `itemPosition`), or null. */
  positions: Float64Array | null;
}

/** Columns and the rows of them a set holds, in order (null: all of them, in order). */
export interface TPointRows {
  cols: TPointColumns;
  rows: Uint32Array | null;
}

/** What is behind each set made by `pointFeatures` (invisible to spreads, JSON, clones and test equality); `taken`: its rows as columns of their own, once asked for. */
const held = new WeakMap<TFeatureSet, TPointRows & { taken?: TPointColumns }>();

/** Properties of feature `i`: a new object with every key, in order (`__proto__` as an own key). */
export function propsAt(cols: TPointColumns, i: number): Record<string, unknown> {
  const { columns, values } = cols.props;
  const p: Record<string, unknown> = {};
  for (let c = 0; c < columns.length; c++) setOwn(p, columns[c]!, values[c]![i]);
  return p;
}

/** Feature `i` as a new object (without its layer position). */
export function pointFeatureAt(cols: TPointColumns, i: number): TFeature {
  return { type: "Feature", geometry: { type: "Point", coordinates: [cols.points[2 * i]!, cols.points[2 * i + 1]!] }, properties: propsAt(cols, i) };
}

/**
 * One properties object that `at(i)` fills with those of feature `i` (as `propsAt` makes them)
 * and returns: for a reader that keeps nothing of it (a filter's test, a writer), so that
 * reading makes no object per feature (bench "data": what a run allocates decides how often V8
 * collects its old generation). The next call changes it. With `only`, just the columns it
 * names (in column order), for a reader that reads no other.
 */
export function propsCursor(cols: TPointColumns, only?: readonly string[]): (i: number) => Record<string, unknown> {
  const all = cols.props.columns;
  const picked = only ? all.flatMap((key, c) => (only.includes(key) ? [c] : [])) : all.map((_, c) => c);
  const columns = picked.map((c) => all[c]!);
  const values = picked.map((c) => cols.props.values[c]!);
  const properties: Record<string, unknown> = {};
  for (const key of columns) setOwn(properties, key, undefined);
  return (i) => {
    for (let c = 0; c < columns.length; c++) setOwn(properties, columns[c]!, values[c]![i]);
    return properties;
  };
}

/**
 * One feature object that `at(i)` fills with feature `i` (as `pointFeatureAt` makes it) and
 * returns: for a writer that reads each feature once and keeps nothing of it (GeoJSON text),
 * so that writing makes no object per feature (the largest part of what a box read of the 10M
 * layer allocated, bench "data"). The next call changes it.
 */
export function pointFeatureCursor(cols: TPointColumns): (i: number) => TFeature {
  const coordinates = [0, 0];
  const propsOf = propsCursor(cols);
  const feature: TFeature = { type: "Feature", geometry: { type: "Point", coordinates }, properties: propsOf(0) };
  return (i) => {
    coordinates[0] = cols.points[2 * i]!;
    coordinates[1] = cols.points[2 * i + 1]!;
    propsOf(i); // refills feature.properties, the cursor's one object
    return feature;
  };
}

/** The features a view holds, made from its columns through its rows (no columns of their own taken first). */
function featuresOf({ cols, rows }: TPointRows): TFeature[] {
  const features = new Array<TFeature>(rows?.length ?? cols.props.length);
  for (let i = 0; i < features.length; i++) {
    const r = rows ? rows[i]! : i;
    const f = pointFeatureAt(cols, r);
    if (cols.positions) setItemPosition(f, cols.positions[r]!);
    features[i] = f;
  }
  return features;
}

/**
 * A feature set held as `cols`, or as the rows `rows` of them in that order; its `features` are
 * made when first read. Setting `features` parts it from `cols`.
 */
export function pointFeatures(cols: TPointColumns, rows: Uint32Array | null = null): TFeatureSet {
  const set = { kind: "features" } as TFeatureSet;
  let features: TFeature[] | undefined;
  Object.defineProperty(set, "features", {
    enumerable: true,
    configurable: true,
    get: () => (features ??= featuresOf({ cols, rows })),
    set: (value: TFeature[]) => {
      held.delete(set);
      features = value;
    },
  });
  held.set(set, { cols, rows });
  return set;
}

/**
 * The rows `rows` of `cols` (all when null) as a feature set: a view of them, or, when they are
 * fewer than a quarter of the columns' rows, taken into columns of their own. So a view never
 * keeps more than four times the bytes of what it holds alive (a filter that keeps one row of a
 * thousand does not hold on to the other 999).
 */
export function viewPoints(cols: TPointColumns, rows: Uint32Array | null): TFeatureSet {
  return rows && rows.length * 4 < cols.props.length ? pointFeatures(takePoints(cols, rows)) : pointFeatures(cols, rows);
}

/** The columns and rows behind a set made by `pointFeatures`, as they are (undefined for any other dataset): for a reader that goes through `rows`. */
export function pointRowsOf(ds: TDataset | null | undefined): TPointRows | undefined {
  return ds?.kind === "features" ? held.get(ds) : undefined;
}

/** The columns of a set made by `pointFeatures`, holding its features and no others (its rows taken once, then kept); undefined for any other dataset. */
export function pointColumnsOf(ds: TDataset | null | undefined): TPointColumns | undefined {
  const h = ds?.kind === "features" ? held.get(ds) : undefined;
  if (!h?.rows) return h?.cols;
  return (h.taken ??= takePoints(h.cols, h.rows));
}

/** Number of features a view holds. */
export function rowCount(view: TPointRows): number {
  return view.rows?.length ?? view.cols.props.length;
}

/** Number of features of `set`, without making them. */
export function featureCount(set: TFeatureSet): number {
  const h = held.get(set);
  return h ? rowCount(h) : set.features.length;
}

/**
 * The rows a test keeps of a view, in order: `keep(i)` or `drop(i)` for its features `i` = 0, 1, …
 * in turn, then `setOf(set)`: the set itself when every one was kept, else the kept rows of the
 * same columns. An array is made only at the first feature dropped, so a test that keeps all
 * makes none.
 */
export class KeptRows {
  private out: Uint32Array | null = null;
  private count = 0;

  constructor(private readonly view: TPointRows) {}

  keep(i: number): void {
    if (this.out) this.out[this.count] = this.view.rows ? this.view.rows[i]! : i;
    this.count++;
  }

  drop(i: number): void {
    if (this.out) return;
    // every one before `i` was kept
    const { rows } = this.view;
    this.out = new Uint32Array(rowCount(this.view));
    for (let j = 0; j < i; j++) this.out[j] = rows ? rows[j]! : j;
  }

  /** The set of the rows kept of `set` (the view of `this.view`): `set` itself when all were, else `viewPoints` of them. */
  setOf(set: TFeatureSet): TFeatureSet {
    return this.out ? viewPoints(this.view.cols, this.out.subarray(0, this.count)) : set;
  }
}

/** The features `index` names, in that order. */
export function takePoints(cols: TPointColumns, index: ArrayLike<number>): TPointColumns {
  const points = new Float64Array(2 * index.length);
  const positions = cols.positions && new Float64Array(index.length);
  for (let i = 0; i < index.length; i++) {
    const r = index[i]!;
    points[2 * i] = cols.points[2 * r]!;
    points[2 * i + 1] = cols.points[2 * r + 1]!;
    if (positions) positions[i] = cols.positions![r]!;
  }
  return { props: takeRows(cols.props, index), points, positions };
}

/**
 * The features of `parts` taken one after another that `index` names (0 is the first of the
 * first part), in that order, read from the parts where they lie (through their rows): what
 * `takePoints` of the parts joined would give, without joining them first (bench "data", the
 * 1-degree `cities-in-area` row on the 10M layer: a result gathered from its nine row groups'
 * batches, each column copied once instead of twice). A column of numbers only in every part
 * stays a `Float64Array`. Undefined when the parts' columns differ.
 */
export function takePointsOf(parts: readonly TPointRows[], index: ArrayLike<number>): TPointColumns | undefined {
  const columns = parts[0]?.cols.props.columns ?? [];
  if (!parts.every((p) => sameNames(p.cols.props.columns, columns))) return undefined;
  if (parts.length === 1 && !parts[0]!.rows) return takePoints(parts[0]!.cols, index);
  // where each part starts among all the features
  const starts = new Float64Array(parts.length + 1);
  for (let p = 0; p < parts.length; p++) starts[p + 1] = starts[p]! + rowCount(parts[p]!);
  const values = columns.map((_, c): TColumnValues => {
    const numbers = parts.every((p) => p.cols.props.values[c] instanceof Float64Array);
    return numbers ? new Float64Array(index.length) : new Array<unknown>(index.length);
  });
  const points = new Float64Array(2 * index.length);
  const positions = parts.every((p) => p.cols.positions) ? new Float64Array(index.length) : null;
  for (let i = 0; i < index.length; i++) {
    const at = index[i]!;
    // the last part starting at or before `at` (binary search: a few steps for thousands of parts)
    let lo = 0;
    let hi = parts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= at) lo = mid;
      else hi = mid - 1;
    }
    const { cols: part, rows } = parts[lo]!;
    const r = rows ? rows[at - starts[lo]!]! : at - starts[lo]!;
    points[2 * i] = part.points[2 * r]!;
    points[2 * i + 1] = part.points[2 * r + 1]!;
    if (positions) positions[i] = part.positions![r]!;
    for (let c = 0; c < values.length; c++) values[c]![i] = part.props.values[c]![r];
  }
  return { props: { kind: "rows", columns, values, length: index.length }, points, positions };
}

/** Whether `a` and `b` are the same names in the same order (columns, property keys). */
export function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
