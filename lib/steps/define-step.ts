/**
 * What a step type is: `defineStep({...})` in `lib/steps/<type>/step.ts` declares it once and
 * everything else is derived from it (lib/steps/registry.ts lists them):
 * - `type`, `label`, `summary`: its name, a title for the design tool's palette and a line of
 *   description (MCP, the palette, the catalogue);
 * - `options`: the zod shape of its options as the runner sees them (defaults filled in,
 *   parameters substituted); `params` names the options a flow may write as
 *   `{"param": "<parameter name>"}` and which parameter types each accepts;
 * - `inputs`: the options that name sources (an input or an earlier step) and the kinds of
 *   data each accepts; `output`: the kind it yields (`same` = the kind of its first source);
 * - `expressions`: options holding MapLibre expressions, checked by flow validation;
 * - `columns`: the columns (names, types) of its output given its sources' columns, in
 *   `stepSources` order (lib/steps/columns.ts); absent = the first source's columns;
 * - `docs`: the cells of its row in the step reference of docs/flow-format.md;
 * - `run`: the runner. It gets the resolved step and a context giving its sources and returns
 *   a new dataset. Runners never mutate their sources (the worker reuses loaded layer
 *   arrays): features whose properties change are copied. A test runs every step on its
 *   fixtures with frozen inputs (lib/steps/registry.test.ts).
 *
 * Derived here: `schema` (strict zod object of the resolved step, with `id`, `type`,
 * `description`), `flowSchema` (the same with `{"param"}` allowed where declared: the step as
 * written in a flow document) and `optionsSchema` (the options alone, as written).
 */
import { z } from "zod";
import type { TExpressionRole, TParamDecl } from "@/lib/expressions/expression";
import type { TColumns } from "@/lib/steps/columns";
import type { TDataset } from "@/lib/steps/dataset";
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
}

type TCommonShape<T extends string> = { id: typeof ZName; type: z.ZodLiteral<T>; description: z.ZodOptional<z.ZodString> };
type TFlowShape<S extends z.ZodRawShape, P extends keyof S> = { [K in keyof S]: K extends P ? z.ZodUnion<[S[K], typeof ZParamRef]> : S[K] };

/** The resolved step a runner gets: options parsed, defaults filled in, parameters substituted. */
export type TResolvedStepOptions<T extends string, S extends z.ZodRawShape> = z.output<z.ZodObject<TCommonShape<T> & S, z.core.$strict>>;

export interface TStepSpec<T extends string, S extends z.ZodRawShape, P extends keyof S & string> {
  type: T;
  label: string;
  summary: string;
  /** Section of the step reference and group in the palette. */
  category: "attribute" | "spatial";
  options: S;
  params?: { readonly [K in P]: readonly TParamAccept[] };
  inputs: readonly TStepInput[];
  output: TStepOutput;
  expressions?: Readonly<Record<string, TExpressionRole>>;
  /**
   * Output columns from the sources' columns (in `stepSources` order). Gets the step as written
   * in the flow: a param-able option may still be `{"param"}`, so none may decide the columns
   * by its value alone.
   */
  columns?: (step: TResolvedStepOptions<T, S>, sources: TColumns[]) => TColumns;
  /** Cells of the step's row in docs/flow-format.md; `sources` defaults to one derived from `inputs` and `output`. */
  docs: { sources?: string; options: string; semantics: string };
  run: (step: TResolvedStepOptions<T, S>, ctx: TStepContext) => Promise<TDataset>;
}

export interface TStepDefinition<
  T extends string = string,
  S extends z.ZodRawShape = z.ZodRawShape,
  P extends keyof S & string = keyof S & string,
> extends TStepSpec<T, S, P> {
  /** Parameter types accepted per param-able option (empty when none). */
  paramable: Readonly<Record<string, readonly TParamAccept[]>>;
  schema: z.ZodObject<TCommonShape<T> & S, z.core.$strict>;
  flowSchema: z.ZodObject<TCommonShape<T> & TFlowShape<S, P>, z.core.$strict>;
  optionsSchema: z.ZodObject<TFlowShape<S, P>, z.core.$strict>;
}

/** Declares a step type (see module doc). */
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
