/**
 * Step implementations. Each runner takes the resolved step (parameters substituted, see
 * `resolveStep` in lib/flows/definition.ts) and a context giving its sources, and returns a
 * new dataset. Runners never mutate their sources (the worker reuses loaded layer arrays):
 * features whose properties change are copied.
 *
 * Geometry work is done by Turf 7 (point-in-polygon, boolean predicates, buffer, centroid,
 * simplify, union, intersect, area, length, haversine distance with Earth radius
 * 6371.0088 km); location joins use Flatbush/KDBush/geokdbush indexes (lib/engine/spatial-index.ts)
 * as a bounding-box prefilter before the exact Turf test. The option reference of each step
 * type is in `STEP_INFO` / `makeSteps` of lib/flows/definition.ts.
 */
import {
  area as turfArea,
  bbox as turfBbox,
  booleanContains,
  booleanIntersects,
  booleanWithin,
  buffer as turfBuffer,
  centerOfMass,
  centroid,
  featureCollection,
  intersect,
  length as turfLength,
  pointOnFeature,
  simplify as turfSimplify,
  union as turfUnion,
} from "@turf/turf";
import type { Feature, Geometry, MultiPolygon, Polygon, Position } from "geojson";
import type { TAggregation, TFieldSpec, TResolvedStepOf, TStepType } from "../flows/definition";
import { compileExpression, type TParamDecl } from "./expression";
import { splitAtAntimeridian } from "./antimeridian";
import { pointInPolygonal } from "./point-in-polygon";
import { geometryIndex, nearestWithinKm, pointIndex, pointsWithinKm, representativePoint } from "./spatial-index";
import type { TDataset, TFeature, TFeatureSet, TRow, TTable } from "./types";

/** What a runner gets besides its options. */
export interface TStepContext {
  /** The dataset named `name` (input or earlier step); null = omitted optional input. */
  get(name: string): TDataset | null;
  params: Record<string, unknown>;
  paramDecls: TParamDecl[];
  /** Call every few thousand items: throws AbortError when cancelled, yields to the event loop now and then. */
  checkpoint(): Promise<void>;
}

type TItems = TFeatureSet | TTable;
type TRunner<K extends TStepType> = (step: TResolvedStepOf<K>, ctx: TStepContext) => Promise<TDataset>;

/**
 * Items between two `checkpoint()` calls in cheap per-item loops. Loops whose items cost more
 * (index queries, geometry operations) check every 16 items or every item, so that a cancel is
 * noticed within a few tens of milliseconds (checkpoint itself only reads a clock).
 */
const EVERY = 4096;

// ---------------------------------------------------------------------------------------------
// Helpers

/** Features of a dataset: an area is one feature without properties; null is empty. */
export function asFeatures(ds: TDataset | null, what = "source"): TFeatureSet {
  if (ds === null) return { kind: "features", features: [] };
  if (ds.kind === "features") return ds;
  if (ds.kind === "area") return { kind: "features", features: [{ type: "Feature", geometry: ds.geometry, properties: {} }] };
  throw new Error(`The ${what} is a table, features are needed`);
}

function asRows(ds: TDataset | null, what = "source"): TTable {
  if (ds === null) return { kind: "rows", columns: [], rows: [] };
  if (ds.kind === "rows") return ds;
  throw new Error(`The ${what} is not a table`);
}

function asItems(ds: TDataset | null): TItems {
  if (ds !== null && ds.kind === "rows") return ds;
  return asFeatures(ds);
}

function props(f: TFeature): Record<string, unknown> {
  return f.properties ?? {};
}

function specFrom(s: TFieldSpec): string {
  return typeof s === "string" ? s : s.from;
}
function specAs(s: TFieldSpec): string {
  return typeof s === "string" ? s : s.as;
}

function pick(p: Record<string, unknown>, specs: readonly TFieldSpec[], into: Record<string, unknown> = {}): Record<string, unknown> {
  for (const s of specs) {
    const v = p[specFrom(s)];
    into[specAs(s)] = v === undefined ? null : v;
  }
  return into;
}

/** Ordered union of the property names of `features` (first appearance order). */
export function columnsOf(records: Iterable<Record<string, unknown>>): string[] {
  const seen = new Set<string>();
  for (const r of records) for (const k of Object.keys(r)) seen.add(k);
  return [...seen];
}

function withProps(f: TFeature, properties: Record<string, unknown>): TFeature {
  return f.id === undefined ? { type: "Feature", geometry: f.geometry, properties } : { type: "Feature", id: f.id, geometry: f.geometry, properties };
}

function withGeometry(f: TFeature, geometry: Geometry | null): TFeature {
  return f.id === undefined ? { type: "Feature", geometry, properties: props(f) } : { type: "Feature", id: f.id, geometry, properties: props(f) };
}

/** Maps properties of features or rows; `columns` gives the new column list for tables. */
async function mapItems(
  items: TItems,
  ctx: TStepContext,
  fn: (p: Record<string, unknown>, f?: TFeature, index?: number) => Record<string, unknown>,
  columns: (old: string[]) => string[],
): Promise<TItems> {
  if (items.kind === "rows") {
    const rows = new Array<TRow>(items.rows.length);
    for (let i = 0; i < rows.length; i++) {
      if (i % EVERY === 0) await ctx.checkpoint();
      rows[i] = fn(items.rows[i], undefined, i);
    }
    return { kind: "rows", columns: columns(items.columns), rows };
  }
  const features = new Array<TFeature>(items.features.length);
  for (let i = 0; i < features.length; i++) {
    if (i % EVERY === 0) await ctx.checkpoint();
    const f = items.features[i];
    features[i] = withProps(f, fn(props(f), f, i));
  }
  return { kind: "features", features };
}

function isNum(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v);
}

/** Running aggregate of one `TAggregation` (see its doc for semantics). */
class Acc {
  n = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  constructor(readonly a: TAggregation) {}
  add(p: Record<string, unknown>): void {
    const a = this.a;
    if (a.op === "count") {
      if (a.field === undefined || (p[a.field] !== null && p[a.field] !== undefined)) this.n++;
      return;
    }
    const v = p[a.field!];
    if (!isNum(v)) return;
    this.n++;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }
  value(): number | null {
    switch (this.a.op) {
      case "count":
        return this.n;
      case "sum":
        return this.sum;
      case "min":
        return this.n ? this.min : null;
      case "max":
        return this.n ? this.max : null;
      case "mean":
        return this.n ? this.sum / this.n : null;
    }
  }
}

function accs(aggs: readonly TAggregation[]): Acc[] {
  return aggs.map((a) => new Acc(a));
}
function accValues(list: Acc[], into: Record<string, unknown>): Record<string, unknown> {
  for (const a of list) into[a.a.as] = a.value();
  return into;
}

/** Orders values: numbers (numeric), then text (code-unit order), then booleans (false < true), then other; null/undefined last. */
function rankOfType(v: unknown): number {
  if (typeof v === "number") return Number.isNaN(v) ? 4 : 0;
  if (typeof v === "string") return 1;
  if (typeof v === "boolean") return 2;
  if (v === null || v === undefined) return 5;
  return 3;
}
function compareValues(a: unknown, b: unknown): number {
  const ta = rankOfType(a);
  const tb = rankOfType(b);
  if (ta !== tb) return ta - tb;
  if (ta === 0 || ta === 1 || ta === 2) return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  if (ta === 3) return JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0;
  return 0;
}

function isPolygonal(g: Geometry | null): g is Polygon | MultiPolygon {
  return g !== null && (g.type === "Polygon" || g.type === "MultiPolygon");
}

/**
 * Point against one indexed geometry: for polygons the banded point-in-polygon test (same
 * answer as Turf booleanPointInPolygon, see point-in-polygon.ts), booleanIntersects otherwise.
 */
function pointHits(pt: Position, g: Geometry, ignoreBoundary: boolean): boolean {
  if (g.type === "Polygon" || g.type === "MultiPolygon") {
    const r = pointInPolygonal(g, pt[0]!, pt[1]!);
    return ignoreBoundary ? r === "inside" : r !== "outside";
  }
  return booleanIntersects({ type: "Point", coordinates: pt }, g);
}

/** `container` contains `g` (Turf booleanContains; a MultiPolygon contains what one of its polygons contains). */
function contains(container: Geometry, g: Geometry): boolean {
  if (g.type === "Point" && isPolygonal(container)) return pointHits(g.coordinates, container, true);
  try {
    return booleanContains(container, g);
  } catch {
    if (container.type === "MultiPolygon")
      return container.coordinates.some((c) => {
        try {
          return booleanContains({ type: "Polygon", coordinates: c }, g);
        } catch {
          return false;
        }
      });
    throw new Error(`"contains" is not supported for ${container.type} containing ${g.type}`);
  }
}

function within(g: Geometry, container: Geometry): boolean {
  if (g.type === "Point") return pointHits(g.coordinates, container, true);
  try {
    return booleanWithin(g, container);
  } catch {
    // Turf does not support this pair of types; fall back to "within one of its polygons".
    if (container.type === "MultiPolygon")
      return container.coordinates.some((c) => {
        try {
          return booleanWithin(g, { type: "Polygon", coordinates: c });
        } catch {
          return false;
        }
      });
    throw new Error(`"within" is not supported for ${g.type} in ${container.type}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Attribute steps

const filter: TRunner<"filter"> = async (step, ctx) => {
  const items = asItems(ctx.get(step.source));
  const ev = compileExpression(step.where, ctx.paramDecls, ctx.params, "predicate");
  if (items.kind === "rows") {
    const rows: TRow[] = [];
    for (let i = 0; i < items.rows.length; i++) {
      if (i % EVERY === 0) await ctx.checkpoint();
      if (ev(items.rows[i])) rows.push(items.rows[i]);
    }
    return { kind: "rows", columns: items.columns, rows };
  }
  const features: TFeature[] = [];
  for (let i = 0; i < items.features.length; i++) {
    if (i % EVERY === 0) await ctx.checkpoint();
    const f = items.features[i];
    if (ev(props(f), f.geometry?.type, f.id)) features.push(f);
  }
  return { kind: "features", features };
};

const select: TRunner<"select"> = (step, ctx) =>
  mapItems(
    asItems(ctx.get(step.source)),
    ctx,
    (p) => pick(p, step.fields),
    () => step.fields.map(specAs),
  );

const compute: TRunner<"compute"> = (step, ctx) => {
  const ev = compileExpression(step.expression, ctx.paramDecls, ctx.params, "value");
  return mapItems(
    asItems(ctx.get(step.source)),
    ctx,
    (p, f) => ({ ...p, [step.field]: ev(p, f?.geometry?.type, f?.id) }),
    (cols) => (cols.includes(step.field) ? cols : [...cols, step.field]),
  );
};

const sort: TRunner<"sort"> = async (step, ctx) => {
  const items = asItems(ctx.get(step.source));
  const list: (TFeature | TRow)[] = items.kind === "rows" ? items.rows : items.features;
  const keys = list.map((x) => (items.kind === "rows" ? (x as TRow) : props(x as TFeature))[step.field]);
  await ctx.checkpoint();
  const sign = step.order === "desc" ? -1 : 1;
  const idx = keys.map((_, i) => i);
  idx.sort((a, b) => {
    const ka = keys[a];
    const kb = keys[b];
    const na = ka === null || ka === undefined;
    const nb = kb === null || kb === undefined;
    if (na || nb) return na === nb ? a - b : na ? 1 : -1; // nulls last in both orders
    return sign * compareValues(ka, kb) || a - b;
  });
  if (items.kind === "rows") return { kind: "rows", columns: items.columns, rows: idx.map((i) => items.rows[i]) };
  return { kind: "features", features: idx.map((i) => items.features[i]) };
};

const limit: TRunner<"limit"> = async (step, ctx) => {
  const items = asItems(ctx.get(step.source));
  const from = step.offset ?? 0;
  if (items.kind === "rows") return { kind: "rows", columns: items.columns, rows: items.rows.slice(from, from + step.n) };
  return { kind: "features", features: items.features.slice(from, from + step.n) };
};

const rank: TRunner<"rank"> = (step, ctx) =>
  mapItems(
    asItems(ctx.get(step.source)),
    ctx,
    (p, _f, i) => ({ ...p, [step.field]: (i ?? 0) + 1 }),
    (cols) => [step.field, ...cols.filter((c) => c !== step.field)],
  );

const toTable: TRunner<"to_table"> = async (step, ctx) => {
  const fs = asFeatures(ctx.get(step.source)).features;
  if (step.columns) {
    const columns = step.columns.map(specAs);
    const rows = new Array<TRow>(fs.length);
    for (let i = 0; i < fs.length; i++) {
      if (i % EVERY === 0) await ctx.checkpoint();
      rows[i] = pick(props(fs[i]), step.columns);
    }
    return { kind: "rows", columns, rows };
  }
  const rows = new Array<TRow>(fs.length);
  for (let i = 0; i < fs.length; i++) {
    if (i % EVERY === 0) await ctx.checkpoint();
    rows[i] = { ...props(fs[i]) };
  }
  return { kind: "rows", columns: columnsOf(rows), rows };
};

const aggregate: TRunner<"aggregate"> = async (step, ctx) => {
  const items = asItems(ctx.get(step.source));
  const list: Record<string, unknown>[] = items.kind === "rows" ? items.rows : items.features.map(props);
  const groups = new Map<string, { key: Record<string, unknown>; accs: Acc[] }>();
  if (step.group_by.length === 0) groups.set("", { key: {}, accs: accs(step.aggregations) });
  for (let i = 0; i < list.length; i++) {
    if (i % EVERY === 0) await ctx.checkpoint();
    const p = list[i];
    let g: { key: Record<string, unknown>; accs: Acc[] } | undefined;
    if (step.group_by.length === 0) g = groups.get("");
    else {
      const key: Record<string, unknown> = {};
      for (const f of step.group_by) key[f] = p[f] === undefined ? null : p[f];
      const k = JSON.stringify(step.group_by.map((f) => key[f]));
      g = groups.get(k);
      if (!g) groups.set(k, (g = { key, accs: accs(step.aggregations) }));
    }
    for (const a of g!.accs) a.add(p);
  }
  const rows = [...groups.values()].map((g) => accValues(g.accs, { ...g.key }));
  return { kind: "rows", columns: [...step.group_by, ...step.aggregations.map((a) => a.as)], rows };
};

const pointsFromRows: TRunner<"points_from_rows"> = async (step, ctx) => {
  const t = asRows(ctx.get(step.source));
  const num = (v: unknown): number => (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : NaN);
  const features = new Array<TFeature>(t.rows.length);
  for (let i = 0; i < t.rows.length; i++) {
    if (i % EVERY === 0) await ctx.checkpoint();
    const r = t.rows[i];
    const lon = num(r[step.lon]);
    const lat = num(r[step.lat]);
    const ok = Number.isFinite(lon) && Number.isFinite(lat) && Math.abs(lon) <= 180 && Math.abs(lat) <= 90;
    features[i] = { type: "Feature", geometry: ok ? { type: "Point", coordinates: [lon, lat] } : null, properties: { ...r } };
  }
  return { kind: "features", features };
};

const join: TRunner<"join"> = async (step, ctx) => {
  const left = asItems(ctx.get(step.left));
  const right = asItems(ctx.get(step.right));
  const rightList: Record<string, unknown>[] = right.kind === "rows" ? right.rows : right.features.map(props);
  const byKey = new Map<string, Record<string, unknown>>();
  for (const r of rightList) {
    const k = r[step.right_field];
    if (k === null || k === undefined) continue;
    if (!byKey.has(String(k))) byKey.set(String(k), r);
  }
  const fields: TFieldSpec[] = step.fields ?? (right.kind === "rows" ? right.columns : columnsOf(rightList)).filter((c) => c !== step.right_field);
  const newCols = fields.map(specAs);
  const empty = Object.fromEntries(newCols.map((c) => [c, null]));
  const match = (p: Record<string, unknown>) => {
    const k = p[step.left_field];
    return k === null || k === undefined ? undefined : byKey.get(String(k));
  };
  let source: TItems = left;
  if (step.how === "inner") {
    source =
      left.kind === "rows"
        ? { kind: "rows", columns: left.columns, rows: left.rows.filter((r) => match(r)) }
        : { kind: "features", features: left.features.filter((f) => match(props(f))) };
  }
  return mapItems(
    source,
    ctx,
    (p) => {
      const m = match(p);
      return m ? pick(m, fields, { ...p }) : { ...p, ...empty };
    },
    (cols) => [...cols, ...newCols.filter((c) => !cols.includes(c))],
  );
};

const union: TRunner<"union"> = async (step, ctx) => {
  const parts = step.sources.map((s) => asItems(ctx.get(s)));
  if (parts.every((p) => p.kind === "features")) return { kind: "features", features: parts.flatMap((p) => (p as TFeatureSet).features) };
  if (parts.every((p) => p.kind === "rows")) {
    const tables = parts as TTable[];
    const columns = [...new Set(tables.flatMap((t) => t.columns))];
    return { kind: "rows", columns, rows: tables.flatMap((t) => t.rows) };
  }
  throw new Error("All sources of a union must be of one kind");
};

// ---------------------------------------------------------------------------------------------
// Spatial steps

const spatialFilter: TRunner<"spatial_filter"> = async (step, ctx) => {
  const source = asFeatures(ctx.get(step.source));
  const byDs = ctx.get(step.by);
  if (byDs === null) return source; // omitted optional area: no restriction
  const by = asFeatures(byDs, "`by` source");
  const { index, entries } = geometryIndex(by.features);
  const keepIfHit = step.predicate !== "disjoint";
  const out: TFeature[] = [];
  for (let i = 0; i < source.features.length; i++) {
    if (i % 16 === 0) await ctx.checkpoint();
    const f = source.features[i];
    const g = f.geometry;
    let hit = false;
    if (g && index) {
      if (g.type === "Point" && step.predicate !== "contains") {
        const [x, y] = g.coordinates;
        const cand = index.search(x, y, x, y);
        const ignoreBoundary = step.predicate === "within";
        for (const c of cand)
          if (pointHits(g.coordinates, entries[c].geometry, ignoreBoundary)) {
            hit = true;
            break;
          }
      } else {
        const [x0, y0, x1, y1] = turfBbox(g);
        const cand = index.search(x0, y0, x1, y1);
        if (step.predicate === "within" || step.predicate === "contains") {
          // Whole features of `by` (not their polygon parts): within / contains need all of it.
          const seen = new Set<number>();
          for (const c of cand) {
            const fi = entries[c].feature;
            if (seen.has(fi)) continue;
            seen.add(fi);
            const other = by.features[fi].geometry!;
            if (step.predicate === "within" ? within(g, other) : contains(g, other)) {
              hit = true;
              break;
            }
          }
        } else {
          for (const c of cand)
            if (booleanIntersects(g, entries[c].geometry)) {
              hit = true;
              break;
            }
        }
      }
    }
    if (hit === keepIfHit) out.push(f);
  }
  return { kind: "features", features: out };
};

const spatialJoin: TRunner<"spatial_join"> = async (step, ctx) => {
  const points = asFeatures(ctx.get(step.points), "`points` source").features;
  const polys = asFeatures(ctx.get(step.polygons), "`polygons` source").features;
  const { index, entries } = geometryIndex(polys);
  const perPoly = polys.map(() => accs(step.aggregations));
  const lastPoint = new Int32Array(polys.length).fill(-1);
  if (index) {
    for (let i = 0; i < points.length; i++) {
      if (i % 512 === 0) await ctx.checkpoint();
      const g = points[i].geometry;
      if (!g) continue;
      const positions: Position[] =
        g.type === "Point" ? [g.coordinates] : g.type === "MultiPoint" ? g.coordinates : [representativePoint(g)].filter((p): p is Position => p !== null);
      const p = props(points[i]);
      for (const pos of positions) {
        const cand = index.search(pos[0], pos[1], pos[0], pos[1]);
        for (const c of cand) {
          const e = entries[c];
          if (lastPoint[e.feature] === i || !isPolygonal(e.geometry)) continue;
          if (pointInPolygonal(e.geometry, pos[0], pos[1]) !== "outside") {
            lastPoint[e.feature] = i; // a point counts once per polygon feature
            for (const a of perPoly[e.feature]) a.add(p);
          }
        }
      }
    }
  }
  return { kind: "features", features: polys.map((f, i) => withProps(f, accValues(perPoly[i], { ...props(f) }))) };
};

const nearest: TRunner<"nearest"> = async (step, ctx) => {
  const source = asFeatures(ctx.get(step.source)).features;
  const target = asFeatures(ctx.get(step.target), "`target` source").features;
  const idx = pointIndex(target);
  const out = new Array<TFeature>(source.length);
  for (let i = 0; i < source.length; i++) {
    if (i % 16 === 0) await ctx.checkpoint();
    const f = source[i];
    const pos = representativePoint(f.geometry);
    const best = pos ? nearestWithinKm(idx, pos, step.max_km) : null;
    const p: Record<string, unknown> = { ...props(f) };
    if (best) {
      pick(props(target[best.feature]), step.fields, p);
      p[step.distance_field] = best.km;
    } else {
      for (const s of step.fields) p[specAs(s)] = null;
      p[step.distance_field] = null;
    }
    out[i] = withProps(f, p);
  }
  return { kind: "features", features: out };
};

const withinDistance: TRunner<"within_distance"> = async (step, ctx) => {
  const source = asFeatures(ctx.get(step.source)).features;
  const target = asFeatures(ctx.get(step.target), "`target` source").features;
  const idx = pointIndex(target);
  const out = new Array<TFeature>(source.length);
  for (let i = 0; i < source.length; i++) {
    if (i % 16 === 0) await ctx.checkpoint();
    const f = source[i];
    const pos = representativePoint(f.geometry);
    const list = accs(step.aggregations);
    if (pos) {
      const near = pointsWithinKm(idx, pos, step.max_km);
      for (let k = 0; k < near.feature.length; k++) for (const a of list) a.add(props(target[near.feature[k]]));
    }
    out[i] = withProps(f, accValues(list, { ...props(f) }));
  }
  return { kind: "features", features: out };
};

const distancePairs: TRunner<"distance_pairs"> = async (step, ctx) => {
  const source = asFeatures(ctx.get(step.source)).features;
  const target = asFeatures(ctx.get(step.target), "`target` source").features;
  const idx = pointIndex(target);
  const rows: TRow[] = [];
  for (let i = 0; i < source.length; i++) {
    if (i % 16 === 0) await ctx.checkpoint();
    const pos = representativePoint(source[i].geometry);
    if (!pos) continue;
    const sp = pick(props(source[i]), step.source_fields);
    const near = pointsWithinKm(idx, pos, step.max_km);
    for (let k = 0; k < near.feature.length; k++) {
      const row = pick(props(target[near.feature[k]]), step.target_fields, { ...sp });
      row[step.distance_field] = near.km[k];
      rows.push(row);
    }
  }
  const columns = [...new Set([...step.source_fields.map(specAs), ...step.target_fields.map(specAs), step.distance_field])];
  return { kind: "rows", columns, rows };
};

async function mapGeometry(
  ctx: TStepContext,
  source: string,
  fn: (f: Feature<Geometry, Record<string, unknown>>) => Geometry | null | undefined,
): Promise<TFeatureSet> {
  const fs = asFeatures(ctx.get(source)).features;
  const out = new Array<TFeature>(fs.length);
  for (let i = 0; i < fs.length; i++) {
    await ctx.checkpoint(); // one geometry operation can take milliseconds
    const f = fs[i];
    out[i] = withGeometry(f, f.geometry ? (fn(f as Feature<Geometry, Record<string, unknown>>) ?? null) : null);
  }
  return { kind: "features", features: out };
}

const buffer: TRunner<"buffer"> = (step, ctx) =>
  mapGeometry(ctx, step.source, (f) => {
    const g = turfBuffer(f, step.distance_km, { units: "kilometers", steps: step.steps })?.geometry;
    // Turf wraps longitudes of a buffer that crosses ±180° into one globe-spanning ring.
    return g && (g.type === "Polygon" || g.type === "MultiPolygon") ? splitAtAntimeridian(g) : g;
  });

const centroidStep: TRunner<"centroid"> = (step, ctx) =>
  mapGeometry(ctx, step.source, (f) =>
    step.method === "center_of_mass" ? centerOfMass(f).geometry : step.method === "point_on_feature" ? pointOnFeature(f).geometry : centroid(f).geometry,
  );

const simplify: TRunner<"simplify"> = (step, ctx) =>
  mapGeometry(ctx, step.source, (f) => turfSimplify(f, { tolerance: step.tolerance, highQuality: step.high_quality, mutate: false }).geometry);

const AREA_FACTOR = { m2: 1, km2: 1e-6, ha: 1e-4 } as const;
const areaStep: TRunner<"area"> = async (step, ctx) => {
  const fs = asFeatures(ctx.get(step.source)).features;
  const out = new Array<TFeature>(fs.length);
  for (let i = 0; i < fs.length; i++) {
    if (i % 64 === 0) await ctx.checkpoint();
    const f = fs[i];
    out[i] = withProps(f, { ...props(f), [step.field]: f.geometry ? turfArea(f.geometry) * AREA_FACTOR[step.unit] : null });
  }
  return { kind: "features", features: out };
};

const LENGTH_UNITS = { m: "meters", km: "kilometers", mi: "miles" } as const;
const lengthStep: TRunner<"length"> = async (step, ctx) => {
  const fs = asFeatures(ctx.get(step.source)).features;
  const out = new Array<TFeature>(fs.length);
  for (let i = 0; i < fs.length; i++) {
    if (i % 64 === 0) await ctx.checkpoint();
    const f = fs[i];
    out[i] = withProps(f, { ...props(f), [step.field]: f.geometry ? turfLength(f as Feature<Geometry>, { units: LENGTH_UNITS[step.unit] }) : null });
  }
  return { kind: "features", features: out };
};

const dissolve: TRunner<"dissolve"> = async (step, ctx) => {
  const fs = asFeatures(ctx.get(step.source)).features;
  const groups = new Map<string, { value: unknown; polys: Feature<Polygon | MultiPolygon>[] }>();
  for (let i = 0; i < fs.length; i++) {
    if (i % EVERY === 0) await ctx.checkpoint();
    const f = fs[i];
    if (!isPolygonal(f.geometry)) continue;
    const value = step.field === undefined ? null : (props(f)[step.field] ?? null);
    const k = JSON.stringify(value);
    let g = groups.get(k);
    if (!g) groups.set(k, (g = { value, polys: [] }));
    g.polys.push({ type: "Feature", geometry: f.geometry, properties: {} });
  }
  const out: TFeature[] = [];
  for (const g of groups.values()) {
    await ctx.checkpoint();
    const merged = g.polys.length === 1 ? g.polys[0] : turfUnion(featureCollection(g.polys));
    const properties = step.field === undefined ? {} : { [step.field]: g.value };
    out.push({ type: "Feature", geometry: merged?.geometry ?? null, properties });
  }
  return { kind: "features", features: out };
};

const clip: TRunner<"clip"> = async (step, ctx) => {
  const source = asFeatures(ctx.get(step.source)).features;
  const byDs = ctx.get(step.by);
  if (byDs === null) return { kind: "features", features: source };
  const polys = asFeatures(byDs, "`by` source").features.filter((f) => isPolygonal(f.geometry)) as Feature<Polygon | MultiPolygon>[];
  const clipper = polys.length === 0 ? null : polys.length === 1 ? polys[0] : turfUnion(featureCollection(polys));
  if (!clipper) return { kind: "features", features: [] };
  const [cx0, cy0, cx1, cy1] = turfBbox(clipper);
  const out: TFeature[] = [];
  for (let i = 0; i < source.length; i++) {
    await ctx.checkpoint(); // one geometry operation can take milliseconds
    const f = source[i];
    const g = f.geometry;
    if (!g) continue;
    const [x0, y0, x1, y1] = turfBbox(g);
    if (x0 > cx1 || x1 < cx0 || y0 > cy1 || y1 < cy0) continue;
    if (g.type === "Point") {
      if (pointInPolygonal(clipper.geometry, g.coordinates[0], g.coordinates[1]) !== "outside") out.push(f);
    } else if (g.type === "MultiPoint") {
      const kept = g.coordinates.filter((p) => pointInPolygonal(clipper.geometry, p[0], p[1]) !== "outside");
      if (kept.length) out.push(withGeometry(f, { type: "MultiPoint", coordinates: kept }));
    } else if (isPolygonal(g)) {
      const cut = intersect(featureCollection([{ type: "Feature", geometry: g, properties: {} }, clipper]));
      if (cut) out.push(withGeometry(f, cut.geometry));
    } else if (booleanIntersects(g, clipper)) out.push(f);
  }
  return { kind: "features", features: out };
};

/** Runner of every step type. */
export const STEP_RUNNERS: { [K in TStepType]: TRunner<K> } = {
  filter,
  select,
  compute,
  sort,
  limit,
  rank,
  to_table: toTable,
  aggregate,
  spatial_filter: spatialFilter,
  spatial_join: spatialJoin,
  points_from_rows: pointsFromRows,
  nearest,
  within_distance: withinDistance,
  distance_pairs: distancePairs,
  buffer,
  centroid: centroidStep,
  simplify,
  dissolve,
  area: areaStep,
  length: lengthStep,
  join,
  union,
  clip,
};
