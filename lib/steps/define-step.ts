/**
 * What a step type is, in two halves (as cal.com's app store keeps an app's metadata apart
 * from its server code): its definition, which the browser, the web server, flow validation,
 * the catalogue and the docs load, and its runner, which only the engine (lib/engine) loads.
 *
 * Definition: `defineStep({...})` in `lib/steps/<type>/definition.ts`, listed in
 * lib/steps/registry.ts. Browser-safe: zod and the small helpers of lib/steps (options.ts,
 * columns.ts, this file), never Turf, lib/geo, flatbush or the expression compiler (a test in
 * lib/steps/registry.test.ts walks the imports). Flow validation, the catalogue, the design
 * tool and the docs derive everything else from it (fields: `TStepSpec`; derived: `TStepDefinition`).
 *
 * Runner: `defineRunner(definition, {...})` in `lib/steps/<type>/step.ts`, listed in
 * lib/steps/runners.ts. It may use anything pure (Turf, lib/geo, the expression compiler).
 * - `run`: gets the resolved step and a context giving its sources and returns a new dataset.
 *   Runners never mutate their sources (the worker reuses loaded layer arrays): features whose
 *   properties change are copied. A test runs every step on its fixtures with frozen inputs and
 *   compares the output with the fixture's expected file (lib/steps/registry.test.ts).
 *
 * Planning (lib/engine/plan-boxes.ts: which box of each layer input a run needs), on the runner
 * (the helpers of lib/steps/extent.ts measure geometry). Boxes are `TBox`; an item "meets" a box
 * when its geometry's box intersects it; null = everything.
 * - `extent`: a box holding every geometry of its output, from its sources' extents (and an
 *   input's caller data); absent = unknown (null).
 * - `demand`: given that only the output items meeting `box` are needed, the box of each source
 *   it needs (by option key; a key left out, or no `demand` at all: the whole source). The
 *   promise: running the step on sources reduced to any subsequence holding their items that
 *   meet their boxes yields, among the items meeting `box`, exactly the same output items in the
 *   same order. Helpers: lib/steps/extent.ts.
 *
 * Streaming (lib/engine/run-flow.ts: a layer read from a file comes batch by batch), on the runner:
 * - `batch`: a step whose output item depends only on its input item of the source named by
 *   option `batch.source` (and on its other sources, read whole) may be run batch by batch:
 *   `start` prepares once (compiles expressions, reads the other sources with `ctx.get`) and
 *   returns the function from one batch of that source to that batch's output items, in order.
 *   Over a source not read yet, the engine chains it lazily; over a dataset in memory it is
 *   `run` (derived: `start`, then the function on the whole source).
 * - `batchSources`: options whose sources the runner reads with `ctx.batches` (batch by batch,
 *   e.g. the source of aggregate) rather than `ctx.get`, so the engine never holds them whole.
 *
 * A runner carries its definition's fields too (`TStepRunner` extends `TStepDefinition`), so
 * the engine reads one object per step.
 */
import { z } from "zod";
import type { TExpressionRole, TParamDecl } from "@/lib/expressions/expression";
import type { TColumns } from "@/lib/steps/columns";
import type { TBox, TDataset } from "@/lib/steps/dataset";
import { ZName, ZParamRef, type TParamAccept } from "@/lib/steps/options";

/** Kinds of data flowing between steps: a layer, a table, or one polygon (an area input). */
export type TDataKind = "features" | "rows" | "area";

/** What a source option accepts: anything, features (an area reads as one feature), or rows. */
export const ACCEPTS = {
  any: ["features", "rows", "area"],
  features: ["features", "area"],
  rows: ["rows"],
} as const satisfies Record<string, readonly TDataKind[]>;

/** An option naming a source (or, `many`, a list of sources). */
export interface TStepInput {
  key: string;
  accepts: readonly TDataKind[];
  many?: boolean;
}

/** Source options that each take features (e.g. `source` and `by`, `source` and `target` of the distance steps). */
export function featureInputs(...keys: string[]): TStepInput[] {
  return keys.map((key) => ({ key, accepts: ACCEPTS.features }));
}

/** What a step yields: features, rows, or the kind of its (first) source. */
export type TStepOutput = "features" | "rows" | "same";

/** What a runner gets besides its options. */
export interface TStepContext {
  /** The dataset named `name` (input or earlier step); null = omitted optional input. */
  get(name: string): TDataset | null;
  params: Record<string, unknown>;
  paramDecls: TParamDecl[];
  /** Call every few thousand items: throws AbortError when cancelled, yields to the event loop now and then. */
  checkpoint(): Promise<void>;
  /**
   * Most items (rows or features) one step may produce (`RUN_MAX_ROWS` in the worker; Infinity
   * when unset). The engine checks every step's output; a step that can produce more items than
   * it reads (distance_pairs, union) checks while it works, through `checkItems`, so it fails
   * before it has built them.
   */
  maxItems: number;
  /** Throws `ResourceLimitError` ("rows <maxItems>") when `count` > `maxItems`. */
  checkItems(count: number): void;
  /**
   * The dataset named `name` in batches, in order: a source not read yet (a layer file, a lazy
   * chain of batch steps) one batch after another, a dataset in memory (or null) as one batch.
   * Only for sources of the options the step lists in `batchSources`.
   */
  batches(name: string): AsyncIterable<TDataset | null>;
}

/** What planning knows of a step's sources (lib/engine/plan-boxes.ts). */
export interface TPlanSources {
  /** A box holding every geometry of the source named `name` (null: unknown). */
  extent(name: string): TBox | null;
  /**
   * The caller's data when `name` is an input handed over in memory (an area, a table, GeoJSON
   * features); null for an omitted optional input; undefined otherwise (a step, a layer file).
   */
  data(name: string): TDataset | null | undefined;
}

/** A step's batch runner: see the module doc. */
export interface TBatchRunner<Step> {
  /** The option naming the source that may come in batches. */
  source: string;
  start: (step: Step, ctx: TStepContext) => Promise<(items: TDataset | null) => Promise<TDataset>>;
}

type TCommonShape<T extends string> = { id: typeof ZName; type: z.ZodLiteral<T>; description: z.ZodOptional<z.ZodString> };
type TFlowShape<S extends z.ZodRawShape, P extends keyof S> = { [K in keyof S]: K extends P ? z.ZodUnion<[S[K], typeof ZParamRef]> : S[K] };

/** The resolved step a runner gets: options parsed, defaults filled in, parameters substituted. */
export type TResolvedStepOptions<T extends string, S extends z.ZodRawShape> = z.output<z.ZodObject<TCommonShape<T> & S, z.core.$strict>>;

export interface TStepSpec<T extends string, S extends z.ZodRawShape, P extends keyof S & string> {
  /** Its name, a title for the design tool's palette and a line of description (MCP, the palette, the catalogue). */
  type: T;
  label: string;
  summary: string;
  /** Section of the step reference and group in the palette. */
  category: "attribute" | "spatial";
  /** The zod shape of its options as the runner sees them (defaults filled in, parameters substituted). */
  options: S;
  /** The options a flow may write as `{"param": "<parameter name>"}`, and the parameter types each accepts. */
  params?: { readonly [K in P]: readonly TParamAccept[] };
  /** The options that name sources (an input or an earlier step) and the kinds of data each accepts. */
  inputs: readonly TStepInput[];
  /** The kind it yields (`same`: the kind of its first source). */
  output: TStepOutput;
  /** Options holding MapLibre expressions, checked by flow validation. */
  expressions?: Readonly<Record<string, TExpressionRole>>;
  /**
   * Options naming a column (property) of a source, by path (`"lon"`, `"fields"`,
   * `"aggregations.field"`: keys inside array items joined by dots) → the source option whose
   * columns it names; the design tool offers those columns.
   */
  columnOptions?: Readonly<Record<string, string>>;
  /**
   * Output columns (names, types; lib/steps/columns.ts) from the sources' columns (in
   * `stepSources` order); absent = the first source's. Gets the step as written in the flow: a
   * param-able option may still be `{"param"}`, so none may decide the columns by its value alone.
   */
  columns?: (step: TResolvedStepOptions<T, S>, sources: TColumns[]) => TColumns;
  /** Cells of the step's row in docs/flow-format.md; `sources` defaults to one derived from `inputs` and `output`. */
  docs: { sources?: string; options: string; semantics: string };
}

export interface TStepDefinition<
  T extends string = string,
  S extends z.ZodRawShape = z.ZodRawShape,
  P extends keyof S & string = keyof S & string,
> extends TStepSpec<T, S, P> {
  /** Parameter types accepted per param-able option (empty when none). */
  paramable: Readonly<Record<string, readonly TParamAccept[]>>;
  /** Strict zod object of the resolved step, with `id`, `type`, `description`. */
  schema: z.ZodObject<TCommonShape<T> & S, z.core.$strict>;
  /** The same with `{"param"}` allowed where declared: the step as written in a flow document. */
  flowSchema: z.ZodObject<TCommonShape<T> & TFlowShape<S, P>, z.core.$strict>;
  /** The options alone, as written. */
  optionsSchema: z.ZodObject<TFlowShape<S, P>, z.core.$strict>;
}

/** Declares a step type's definition (see module doc). */
export function defineStep<const T extends string, S extends z.ZodRawShape, P extends keyof S & string = never>(
  spec: TStepSpec<T, S, P>,
): TStepDefinition<T, S, P> {
  const common = { id: ZName, type: z.literal(spec.type), description: z.string().optional() };
  const paramable: Record<string, readonly TParamAccept[]> = { ...(spec.params ?? {}) };
  const flowShape = Object.fromEntries(Object.entries(spec.options).map(([k, s]) => [k, k in paramable ? z.union([s, ZParamRef]) : s]));
  return {
    ...spec,
    paramable,
    schema: z.strictObject({ ...common, ...spec.options }),
    flowSchema: z.strictObject({ ...common, ...flowShape }),
    optionsSchema: z.strictObject(flowShape),
  } as unknown as TStepDefinition<T, S, P>;
}

/** What a runner declares: `run` or `batch` (or both), and its planning hooks (see module doc). */
export interface TRunnerSpec<T extends string, S extends z.ZodRawShape> {
  /** Planning: a box holding every geometry of the output (see module doc); absent = unknown. */
  extent?: (step: TResolvedStepOptions<T, S>, sources: TPlanSources) => TBox | null;
  /** Planning: the box of each source (by option key) needed for the output items meeting `box` (see module doc); absent = whole sources. */
  demand?: (step: TResolvedStepOptions<T, S>, box: TBox | null, sources: TPlanSources) => Partial<Record<keyof S & string, TBox | null>>;
  /** Streaming: the runner for one batch of a source (see module doc); `run` is derived from it when absent. */
  batch?: TBatchRunner<TResolvedStepOptions<T, S>>;
  /** Streaming: options whose sources the runner reads with `ctx.batches`. */
  batchSources?: readonly (keyof S & string)[];
  run?: (step: TResolvedStepOptions<T, S>, ctx: TStepContext) => Promise<TDataset>;
}

/** A step type as the engine runs it: its definition and its runner. */
export interface TStepRunner<T extends string = string, S extends z.ZodRawShape = z.ZodRawShape, P extends keyof S & string = keyof S & string>
  extends TStepDefinition<T, S, P>, Omit<TRunnerSpec<T, S>, "run"> {
  run: (step: TResolvedStepOptions<T, S>, ctx: TStepContext) => Promise<TDataset>;
}

/** Declares the runner of a step type defined by `definition` (see module doc). */
export function defineRunner<T extends string, S extends z.ZodRawShape, P extends keyof S & string>(
  definition: TStepDefinition<T, S, P>,
  spec: TRunnerSpec<T, S>,
): TStepRunner<T, S, P> {
  const batch = spec.batch;
  const run = spec.run ?? (batch && (async (step, ctx) => (await batch.start(step, ctx))(ctx.get((step as Record<string, unknown>)[batch.source] as string))));
  if (!run) throw new Error(`Step type "${definition.type}" needs a run or a batch runner`);
  return { ...definition, ...spec, run };
}
