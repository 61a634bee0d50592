/**
 * Previews of a flow document that is not saved anywhere: a designer runs the flow they are
 * building and sees what every step yields, before any version or API exists.
 *
 * The run is an ordinary designer's run (lib/runs/create-run.ts): the same request and layer
 * checks as Try it, the same worker, limits, cancellation and metering. It has no API and no
 * version; the flow (`previewFlow`: one result per step) is stored with it, and the worker keeps
 * only the first `PREVIEW_ROWS` rows (features) of each step, with the full count
 * (worker/runtime/run-process.ts), so a preview of a big layer stays small.
 */
import "server-only";
import { z } from "zod";
import { blobStore } from "@/lib/blobs";
import { AppError, validationError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/errors/zod-issues";
import { ZFlowVersion, type TFlowVersion } from "@/lib/flows/definition";
import { validateFlowVersion } from "@/lib/flows/validate-flow-version";
import { topologicalOrder } from "@/lib/engine/flow-document";
import type { TFeature, TRow } from "@/lib/engine/types";
import { tableRows } from "@/lib/steps/dataset";
import { stepDefinition, stepSources } from "@/lib/steps/step-schema";
import { cancelRun } from "@/lib/runs/cancel-run";
import { createRun } from "@/lib/runs/create-run";
import { getRunOrThrow, type TRunWithResults } from "@/lib/runs/get-run-or-throw";
import { PREVIEW_ROWS } from "@/lib/runs/preview-rows";
import { readSpill } from "@/lib/runs/result-spill";
import { runStatus, ZRunDocument } from "@/lib/runs/run-document";
import type { TDesignerScope, TPreviewTarget } from "@/lib/runs/scope";
import { checkRunRequest } from "@/lib/runs/check-run-request";
import { waitForRun } from "@/lib/runs/wait-for-run";

/** The body of `POST .../flow-previews`: the document as it is now, and the run's inputs and parameters (as Try it sends them). */
export const ZFlowPreviewRequest = z.strictObject({
  document: z.unknown(),
  inputs: z.record(z.string(), z.unknown()).default({}),
  parameters: z.record(z.string(), z.unknown()).default({}),
});

export const ZPreviewColumn = z.object({
  name: z.string(),
  type: z.enum(["integer", "number", "string", "boolean", "json", "any"]).describe("Declared by the flow, else seen in the rows shown."),
});

export const ZStepPreview = z.object({
  id: z.string(),
  type: z.string().describe("The step's type."),
  kind: z.enum(["layer", "table"]),
  count: z.int().min(0).describe("All rows (features) the step yielded."),
  columns: z.array(ZPreviewColumn).describe("Table columns, or feature properties."),
  rows: z.array(z.record(z.string(), z.unknown())).optional().describe("Tables: the first rows (at most `row_limit`)."),
  features: z.array(z.unknown()).optional().describe("Layers: the first GeoJSON features (at most `row_limit`)."),
});

export const ZFlowPreview = ZRunDocument.pick({
  run_id: true,
  state: true,
  links: true,
  created_at: true,
  started_at: true,
  finished_at: true,
  progress: true,
  error: true,
})
  .extend({
    row_limit: z.int().describe("Most rows (features) shown per step."),
    steps: z.array(ZStepPreview).optional().describe("Completed only: each step's output, in the document's order."),
  })
  .describe("A preview run of a flow document.");

export type TPreviewColumn = z.infer<typeof ZPreviewColumn>;
export type TStepPreview = z.infer<typeof ZStepPreview>;
export type TFlowPreview = z.infer<typeof ZFlowPreview>;

/**
 * The flow a preview of `document` runs: the document, valid as for saving (its results may be
 * missing), with its results replaced by one per step. AppError `validation_failed` (422) with
 * pointers under `/document` otherwise, or when the document has no step to show.
 */
export function previewFlow(document: unknown): TFlowVersion {
  // A document still being built may have no results yet: the preview makes its own.
  const given = (document as { results?: unknown } | null)?.results;
  const noResults = given === undefined || (Array.isArray(given) && given.length === 0);
  const checked = validateFlowVersion(document);
  let parsed: Omit<TFlowVersion, "results">;
  if (checked.ok) parsed = checked.flow;
  else {
    const errors = noResults ? checked.errors.filter((e) => e.field !== "/results") : checked.errors;
    const underDocument = errors.map((e) => ({ ...e, field: `/document${e.field}` }));
    if (errors.length > 0) throw validationError(underDocument, "The flow document has problems; see errors.");
    parsed = ZFlowVersion.omit({ results: true }).parse(document);
  }
  if (parsed.steps.length === 0) {
    throw validationError([{ field: "/document/steps", code: "too_small", message: "Add a step: a preview shows what each step yields." }]);
  }
  // The steps yielding rows, in run order (`same`: the kind of its first source): their results are tables.
  const rows = new Set(parsed.inputs.filter((i) => i.kind === "table").map((i) => i.name));
  for (const s of topologicalOrder(parsed.steps)) {
    const output = stepDefinition(s.type)!.output;
    if (output === "rows" || (output === "same" && rows.has(stepSources(s)[0]?.name ?? ""))) rows.add(s.id);
  }
  const results = parsed.steps.map((s) => ({ key: s.id, kind: rows.has(s.id) ? ("table" as const) : ("layer" as const), from: s.id }));
  return ZFlowVersion.parse({ ...parsed, results });
}

/**
 * Starts a preview of `body.document` for the designer `scope` (see the module doc). The inputs
 * and parameters are checked as Try it checks them (422 naming each field; a layer of another
 * workspace reads as missing). Returns the new run's id.
 */
export async function startFlowPreview(scope: TDesignerScope, body: unknown): Promise<{ runId: string }> {
  const { document, inputs, parameters } = parseOrThrow(ZFlowPreviewRequest, body);
  const flow = previewFlow(document);
  const target: TPreviewTarget = { workspaceId: scope.workspaceId, flowApiId: null, flowVersionId: null, releaseId: null, flow, preview: true };
  const request = await checkRunRequest(scope, target, { inputs, parameters });
  const { runId } = await createRun(scope, target, request);
  return { runId };
}

/** The designer's preview run `runId` (AppError `not_found` for any other run, as for a missing one). */
async function getPreviewRunOrThrow(scope: TDesignerScope, runId: string): Promise<TRunWithResults & { flowDocument: unknown }> {
  const run = await getRunOrThrow(scope, runId);
  if (run.flowDocument === null) throw new AppError("not_found", "No such preview exists among your runs.");
  return run;
}

/** The type of a column from its values shown: one JSON type for all non-null values, else `any`. */
function seenType(values: unknown[]): TPreviewColumn["type"] {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0) return "any";
  if (present.every((v) => typeof v === "number")) return present.every(Number.isInteger) ? "integer" : "number";
  if (present.every((v) => typeof v === "string")) return "string";
  if (present.every((v) => typeof v === "boolean")) return "boolean";
  if (present.every((v) => typeof v === "object")) return "json";
  return "any";
}

/** Columns of the rows shown: the flow's declared ones first (their types when known), then the others in order of appearance. */
function columnsOf(declared: { name: string; type: string }[], names: string[], rows: TRow[]): TPreviewColumn[] {
  const order = [...new Set([...declared.map((f) => f.name), ...names, ...rows.flatMap((r) => Object.keys(r))])];
  return order.map((name) => {
    const type = declared.find((f) => f.name === name)?.type;
    return { name, type: type && type !== "any" ? (type as TPreviewColumn["type"]) : seenType(rows.map((r) => r[name])) };
  });
}

/** One step's output as the preview shows it, from its result's copy (at most `PREVIEW_ROWS` items). */
async function stepPreview(run: TRunWithResults, step: { id: string; type: string }): Promise<TStepPreview | null> {
  const result = run.results.find((r) => r.key === step.id);
  if (!result?.spillKey) return null;
  const copy = await readSpill(result.key, blobStore().stream(result.spillKey));
  const declared = copy.columns?.fields ?? [];
  if (copy.kind === "layer") {
    const features = copy.data.features.slice(0, PREVIEW_ROWS);
    const properties = features.map((f: TFeature) => f.properties ?? {});
    return {
      id: step.id,
      type: step.type,
      kind: "layer",
      count: result.featureCount ?? features.length,
      columns: columnsOf(declared, [], properties),
      features: features.map((f) => ({ type: "Feature", geometry: f.geometry, properties: f.properties ?? {} })),
    };
  }
  const rows = tableRows(copy.data, 0, PREVIEW_ROWS);
  return { id: step.id, type: step.type, kind: "table", count: result.rowCount ?? rows.length, columns: columnsOf(declared, copy.data.columns, rows), rows };
}

/**
 * The designer's preview run `runId`, after waiting up to `waitMs` for it to end: state,
 * progress, the error of a failed run (`step` names the failing step) and, once completed, each
 * step's output. `base` is the path the links start from (`/api/design/{organization}/{workspace}`).
 */
export async function getFlowPreview(scope: TDesignerScope, runId: string, opts: { base: string; waitMs?: number }): Promise<TFlowPreview> {
  const found = await getPreviewRunOrThrow(scope, runId);
  const run = opts.waitMs ? await waitForRun(found.id, opts.waitMs) : found;
  const doc: TFlowPreview = runStatus(run, `${opts.base}/flow-previews/${run.id}`, { row_limit: PREVIEW_ROWS });
  if (run.state === "completed") {
    const flow = ZFlowVersion.parse(found.flowDocument);
    const steps = await Promise.all(flow.steps.map((s) => stepPreview(run, s)));
    doc.steps = steps.filter((s): s is TStepPreview => s !== null);
  }
  return doc;
}

/** Cancels the designer's preview run `runId` (AppError `conflict` when it has ended already). */
export async function cancelFlowPreview(scope: TDesignerScope, runId: string): Promise<void> {
  await getPreviewRunOrThrow(scope, runId);
  await cancelRun(scope, runId);
}
