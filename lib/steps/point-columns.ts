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
 */
import type { TDataset, TFeature, TFeatureSet, TTable } from "@/lib/steps/dataset";
import { setItemPosition, setOwn, sliceTable, takeRows, type TColumnValues } from "@/lib/steps/dataset";

/** A feature set's columns (see the module doc). */
export interface TPointColumns {
  /** The properties: every feature has every key of `columns`, in that order; `values[c]` are the cells of `columns[c]`. */
  props: TTable;
  /** x, y of each feature in turn. */
  points: Float64Array;
  /** Each feature's position in its layer's own order (lib/steps/dataset.ts `itemPosition`), or null. */
  positions: Float64Array | null;
}

/** The columns behind the feature sets made by `pointFeatures` (invisible to spreads, JSON, clones and test equality). */
const held = new WeakMap<TFeatureSet, TPointColumns>();

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

function featuresOf(cols: TPointColumns): TFeature[] {
  const features = new Array<TFeature>(cols.props.length);
  for (let i = 0; i < features.length; i++) {
    const f = pointFeatureAt(cols, i);
    if (cols.positions) setItemPosition(f, cols.positions[i]!);
    features[i] = f;
  }
  return features;
}

/** A feature set held as `cols`; its `features` are made from them when first read. Setting `features` parts it from `cols`. */
export function pointFeatures(cols: TPointColumns): TFeatureSet {
  const set = { kind: "features" } as TFeatureSet;
  let features: TFeature[] | undefined;
  Object.defineProperty(set, "features", {
    enumerable: true,
    configurable: true,
    get: () => (features ??= featuresOf(cols)),
    set: (value: TFeature[]) => {
      held.delete(set);
      features = value;
    },
  });
  held.set(set, cols);
  return set;
}

/** The columns of a set made by `pointFeatures` (undefined for any other dataset). */
export function pointColumnsOf(ds: TDataset | null | undefined): TPointColumns | undefined {
  return ds?.kind === "features" ? held.get(ds) : undefined;
}

/** Number of features of `set`, without making them. */
export function featureCount(set: TFeatureSet): number {
  return held.get(set)?.props.length ?? set.features.length;
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

/** Features `start` to `end` (exclusive). */
export function slicePoints(cols: TPointColumns, start: number, end = cols.props.length): TPointColumns {
  const props = sliceTable(cols.props, start, end);
  const to = start + props.length;
  return { props, points: cols.points.slice(2 * start, 2 * to), positions: cols.positions?.slice(start, to) ?? null };
}

/**
 * The features of `parts` taken one after another that `index` names (0 is the first of the
 * first part), in that order, read from the parts where they lie: what `takePoints` of the parts
 * joined would give, without joining them first (bench "data", the 1-degree `cities-in-area`
 * row on the 10M layer: a result gathered from its nine row groups' batches, each column copied
 * once instead of twice). A column of numbers only in every part stays a `Float64Array`.
 * Undefined when the parts' columns differ.
 */
export function takePointsOf(parts: readonly TPointColumns[], index: ArrayLike<number>): TPointColumns | undefined {
  const columns = parts[0]?.props.columns ?? [];
  if (!parts.every((p) => sameNames(p.props.columns, columns))) return undefined;
  if (parts.length === 1) return takePoints(parts[0]!, index);
  // where each part starts among all the features
  const starts = new Float64Array(parts.length + 1);
  for (let p = 0; p < parts.length; p++) starts[p + 1] = starts[p]! + parts[p]!.props.length;
  const values = columns.map((_, c): TColumnValues => {
    const numbers = parts.every((p) => p.props.values[c] instanceof Float64Array);
    return numbers ? new Float64Array(index.length) : new Array<unknown>(index.length);
  });
  const points = new Float64Array(2 * index.length);
  const positions = parts.every((p) => p.positions) ? new Float64Array(index.length) : null;
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
    const part = parts[lo]!;
    const r = at - starts[lo]!;
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
