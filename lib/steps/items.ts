/**
 * Helpers every runner shares: reading a source as features, rows or either, copying
 * features with new properties or geometry (never mutating the source), picking fields by
 * field spec, and loops that check for cancellation.
 */
import type { Feature, Geometry } from "geojson";
import type { TStepContext } from "@/lib/steps/define-step";
import {
  carryItemPosition,
  columnValues,
  tableFromRows,
  tableRows,
  type TColumnValues,
  type TDataset,
  type TFeature,
  type TFeatureSet,
  type TTable,
} from "@/lib/steps/dataset";
import { featureCount } from "@/lib/steps/point-columns";
import { specAs, specFrom, type TFieldSpec } from "@/lib/steps/options";

export type TItems = TFeatureSet | TTable;

/**
 * Items between two `checkpoint()` calls in cheap per-item loops. Loops whose items cost more
 * (index queries, geometry operations) check every 16 items or every item, so that a cancel is
 * noticed within a few tens of milliseconds (checkpoint itself only reads a clock).
 */
export const EVERY = 4096;

/** Features of a dataset: an area is one feature without properties; null is empty. */
export function asFeatures(ds: TDataset | null, what = "source"): TFeatureSet {
  if (ds === null) return { kind: "features", features: [] };
  if (ds.kind === "features") return ds;
  if (ds.kind === "area") return { kind: "features", features: [{ type: "Feature", geometry: ds.geometry, properties: {} }] };
  throw new Error(`The ${what} is a table, features are needed`);
}

export function asRows(ds: TDataset | null, what = "source"): TTable {
  if (ds === null) return tableFromRows([], []);
  if (ds.kind === "rows") return ds;
  throw new Error(`The ${what} is not a table`);
}

export function asItems(ds: TDataset | null): TItems {
  if (ds !== null && ds.kind === "rows") return ds;
  return asFeatures(ds);
}

/** Items of a dataset: its rows or features (held by column or not); an area counts as one. */
export function itemCount(ds: TDataset): number {
  return ds.kind === "rows" ? ds.length : ds.kind === "features" ? featureCount(ds) : 1;
}

export function props(f: TFeature): Record<string, unknown> {
  return f.properties ?? {};
}

export { specFrom, specAs };

/** Copies the fields `specs` of `p` into `into` (renamed as the specs say); a missing field becomes null. */
export function pick(p: Record<string, unknown>, specs: readonly TFieldSpec[], into: Record<string, unknown> = {}): Record<string, unknown> {
  for (const s of specs) {
    const v = p[specFrom(s)];
    into[specAs(s)] = v === undefined ? null : v;
  }
  return into;
}

/**
 * `pick` on every record of `table` at once: the columns named by `specs` (renamed as they say,
 * a name given twice keeping its first place and its last value), a missing field null. For
 * names that are no property of a plain object only (undefined otherwise), where a record's
 * missing field reads the same as a missing column.
 */
export function pickColumns(table: TTable, specs: readonly TFieldSpec[]): TTable | undefined {
  if (specs.some((s) => specFrom(s) in Object.prototype || specAs(s) in Object.prototype)) return undefined;
  const picked = new Map<string, TColumnValues>();
  for (const s of specs) {
    const cells = columnValues(table, specFrom(s));
    // a column without undefined cells is taken as it is (columns are never modified)
    if (!cells) picked.set(specAs(s), new Array<unknown>(table.length).fill(null));
    else if (cells instanceof Float64Array || !cells.includes(undefined)) picked.set(specAs(s), cells);
    else {
      const out = new Array<unknown>(cells.length);
      for (let i = 0; i < cells.length; i++) out[i] = cells[i] === undefined ? null : cells[i];
      picked.set(specAs(s), out);
    }
  }
  return { kind: "rows", columns: [...picked.keys()], values: [...picked.values()], length: table.length };
}

/** Ordered union of the property names of `records` (first appearance order). */
export function columnsOf(records: Iterable<Record<string, unknown>>): string[] {
  const seen = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

/**
 * `f` with `properties` in place of its own: its `id`, its layer position and its `bbox` member
 * (RFC 7946 section 5: the geometry it bounds is the same) are kept.
 */
export function withProps(f: TFeature, properties: Record<string, unknown>): TFeature {
  const out: TFeature =
    f.id === undefined ? { type: "Feature", geometry: f.geometry, properties } : { type: "Feature", id: f.id, geometry: f.geometry, properties };
  if (f.bbox !== undefined) out.bbox = f.bbox;
  carryItemPosition(f, out);
  return out;
}

/** `f` with `geometry` in place of its own: its `id` and layer position are kept, its `bbox` member is not (it bounded the old geometry). */
export function withGeometry(f: TFeature, geometry: Geometry | null): TFeature {
  const out: TFeature =
    f.id === undefined ? { type: "Feature", geometry, properties: props(f) } : { type: "Feature", id: f.id, geometry, properties: props(f) };
  carryItemPosition(f, out);
  return out;
}

/** `fn` of each of `features`, in order, checking for cancellation every `every` features. */
async function mapFeatures(ctx: TStepContext, features: readonly TFeature[], every: number, fn: (f: TFeature, i: number) => TFeature): Promise<TFeatureSet> {
  const out = new Array<TFeature>(features.length);
  for (let i = 0; i < features.length; i++) {
    if (i % every === 0) await ctx.checkpoint();
    out[i] = fn(features[i], i);
  }
  return { kind: "features", features: out };
}

/** Maps properties of features or rows; `columns` gives the new column list for tables. */
export async function mapItems(
  items: TItems,
  ctx: TStepContext,
  fn: (p: Record<string, unknown>, f?: TFeature, index?: number) => Record<string, unknown>,
  columns: (old: string[]) => string[],
): Promise<TItems> {
  if (items.kind === "features") return mapFeatures(ctx, items.features, EVERY, (f, i) => withProps(f, fn(props(f), f, i)));
  const rows = tableRows(items);
  for (let i = 0; i < rows.length; i++) {
    if (i % EVERY === 0) await ctx.checkpoint();
    rows[i] = fn(rows[i], undefined, i);
  }
  return tableFromRows(columns(items.columns), rows);
}

/** Replaces each feature's geometry by `fn(feature)` (null geometry stays null), checking for cancellation at every feature (one geometry operation can take milliseconds). */
export function mapGeometry(
  ctx: TStepContext,
  source: string,
  fn: (f: Feature<Geometry, Record<string, unknown>>) => Geometry | null | undefined,
): Promise<TFeatureSet> {
  return mapFeatures(ctx, asFeatures(ctx.get(source)).features, 1, (f) =>
    withGeometry(f, f.geometry ? (fn(f as Feature<Geometry, Record<string, unknown>>) ?? null) : null),
  );
}

/** Adds `field` = `fn(geometry)` to every feature (null for null geometry), checking for cancellation every 64 features. */
export function addGeometryMeasure(ctx: TStepContext, source: string, field: string, fn: (f: Feature<Geometry>) => number): Promise<TFeatureSet> {
  return mapFeatures(ctx, asFeatures(ctx.get(source)).features, 64, (f) =>
    withProps(f, { ...props(f), [field]: f.geometry ? fn(f as Feature<Geometry>) : null }),
  );
}
