/**
 * Test helpers: feature and table builders, tiny flows around one step (`runStep`), and the
 * shape of a step folder's `fixtures.ts`. Used only by tests and fixtures (they may cross
 * layers: a step's test runs it through flow validation and the engine).
 */
import path from "node:path";
import { validateFlowVersion, type TFlowVersion } from "@/lib/flows/definition";
import { runFlow } from "@/lib/engine/run-flow";
import type { TEngineResult, TResolvedInputs } from "@/lib/engine/types";
import {
  itemPosition,
  tableFromRows,
  tableRows,
  type TBox,
  type TDataset,
  type TFeature,
  type TFeatureSet,
  type TLayerSource,
  type TTable,
} from "@/lib/steps/dataset";
import { boxesMeet, featuresBox, geometryBox } from "@/lib/steps/extent";
import { pointColumn } from "@/lib/geo/point-column";
import { pointFeatures, sameNames, type TPointColumns } from "@/lib/steps/point-columns";

/** Features of a layer result, rows of a table result, properties of each feature. */
export const F = (d: unknown) => (d as TFeatureSet).features;
export const R = (d: unknown) => tableRows(d as TTable);
/** A table result as its columns and rows (records), to compare with a literal. */
export const T = (d: unknown) => ({ kind: "rows", columns: (d as TTable).columns, rows: R(d) });
export const P = (d: unknown) => F(d).map((f) => f.properties);

export function pt(lon: number, lat: number, properties: Record<string, unknown> = {}): TFeature {
  return { type: "Feature", geometry: { type: "Point", coordinates: [lon, lat] }, properties };
}

export function box(x0: number, y0: number, x1: number, y1: number, properties: Record<string, unknown> = {}): TFeature {
  return {
    type: "Feature",
    geometry: {
      type: "Polygon",
      coordinates: [
        [
          [x0, y0],
          [x1, y0],
          [x1, y1],
          [x0, y1],
          [x0, y0],
        ],
      ],
    },
    properties,
  };
}

export const fs = (features: TFeature[]): TDataset => ({ kind: "features", features });
export const table = (rows: Record<string, unknown>[], columns?: string[]): TDataset =>
  tableFromRows(columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))], rows);

/** Validates a document and throws with the errors when invalid. */
export function mustValidate(doc: unknown): TFlowVersion {
  const v = validateFlowVersion(doc);
  if (!v.ok) throw new Error(JSON.stringify(v.errors, null, 1));
  return v.flow;
}

/**
 * Runs one step over the given inputs (kinds derived from the datasets) and returns the
 * step's output as a result of `kind`.
 */
export async function runStep(
  step: Record<string, unknown>,
  inputs: Record<string, TDataset | null>,
  kind: "layer" | "table",
  opts: { parameters?: unknown[]; params?: Record<string, unknown>; optional?: string[] } = {},
): Promise<TEngineResult["data"]> {
  const doc = {
    inputs: Object.entries(inputs).map(([name, d]) => ({
      name,
      kind: d === null ? "area" : d.kind === "features" ? "layer" : d.kind === "rows" ? "table" : "area",
      optional: opts.optional?.includes(name) ?? false,
    })),
    parameters: opts.parameters ?? [],
    steps: [{ id: "s", ...step }],
    results: [{ key: "out", kind, from: "s" }],
  };
  const flow = mustValidate(doc);
  const [r] = await runFlow(flow, inputs as TResolvedInputs, opts.params ?? {});
  return r.data;
}

/**
 * One example run of a step, in its folder's `fixtures.ts`: the step (without `id`), its
 * inputs by source name and the result kind, as `runStep` takes them. lib/steps/registry.test.ts
 * runs every fixture of every registered step with frozen inputs and compares its output with
 * `fixtures/<name as a slug>.expected.geojson` (a layer) or `.json` (a table) beside it;
 * `REGEN=1 npx vitest run --project unit lib/steps/registry.test.ts` rewrites those files.
 */
export interface TStepFixture {
  name: string;
  step: Record<string, unknown>;
  inputs: Record<string, TDataset | null>;
  kind: "layer" | "table";
  opts?: { parameters?: unknown[]; params?: Record<string, unknown>; optional?: string[] };
}

const STEPS_DIR = import.meta.dirname;

/** The folder of a step type under lib/steps (kebab-case of the type). */
export const folderOf = (type: string) => type.replaceAll("_", "-");

/** The fixtures of a step type (its folder's `fixtures.ts`). */
export async function fixturesOf(type: string): Promise<TStepFixture[]> {
  return ((await import(path.join(STEPS_DIR, folderOf(type), "fixtures.ts"))) as { fixtures: TStepFixture[] }).fixtures;
}

/** `lib/steps/<type>/fixtures/<name as a slug>.expected.<geojson|json>`: a layer as a FeatureCollection, a table as `{columns, rows}`. */
export function expectedFile(type: string, fx: TStepFixture): string {
  const slug = fx.name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return path.join(STEPS_DIR, folderOf(type), "fixtures", `${slug}.expected.${fx.kind === "layer" ? "geojson" : "json"}`);
}

/** The features whose geometry's box meets `box` (null: all), in order: a layer restricted in memory. */
export function restrictToBox(features: readonly TFeature[], box: TBox | null): TFeature[] {
  if (box === null) return [...features];
  return features.filter((f) => {
    const b = geometryBox(f.geometry);
    return b !== null && boxesMeet(b, box);
  });
}

/**
 * `features` held by column as a layer file's reader holds them (lib/steps/point-columns.ts):
 * when all are plain 2D Points without `id` or `bbox`, with the same property keys in the same
 * order; undefined otherwise.
 */
export function asPointColumns(features: readonly TFeature[]): TPointColumns | undefined {
  const points = pointColumn(features.map((f) => f.geometry));
  const columns = Object.keys(features[0]?.properties ?? {});
  const plain = (f: TFeature) => f.id === undefined && f.bbox === undefined && sameNames(Object.keys(f.properties ?? {}), columns);
  if (!points || !features.every(plain)) return undefined;
  const values = columns.map((key) => features.map((f) => f.properties![key]));
  const positions = features.every((f) => itemPosition(f) !== undefined) ? Float64Array.from(features, (f) => itemPosition(f)!) : null;
  return { props: { kind: "rows", columns, values, length: features.length }, points, positions };
}

/**
 * A `TLayerSource` double over features in memory, read as a GeoParquet reader reads row groups:
 * groups of `groupSize` features in order, a group skipped when the box of its geometries misses
 * the box asked for, a kept group yielded whole (so items outside the box come along); a group
 * of plain points held by column (`asPointColumns`), as a layer file's reader yields it, unless
 * `byColumn` is false. `onGroup(k)` is called as group k is about to be yielded; `reads` lists
 * the box of each `batches` call.
 */
export function layerSource(
  features: readonly TFeature[],
  opts: { groupSize?: number; onGroup?: (k: number) => void; byColumn?: boolean } = {},
): TLayerSource & { reads: (TBox | null)[] } {
  const size = opts.groupSize ?? 1000;
  const groups: TFeature[][] = [];
  for (let i = 0; i < features.length; i += size) groups.push(features.slice(i, i + size));
  const boxes = groups.map((g) => featuresBox(g));
  const source = {
    kind: "layer-source" as const,
    of: "features" as const,
    itemCount: features.length,
    bbox: featuresBox(features),
    reads: [] as (TBox | null)[],
    async *batches(box: TBox | null) {
      source.reads.push(box);
      for (let k = 0; k < groups.length; k++) {
        if (box !== null && (boxes[k] === null || !boxesMeet(boxes[k]!, box))) continue;
        opts.onGroup?.(k);
        const cols = opts.byColumn === false ? undefined : asPointColumns(groups[k]!);
        yield cols ? pointFeatures(cols) : groups[k]!;
      }
    },
  };
  return source;
}
