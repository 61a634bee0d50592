/**
 * The run document (spec "Run" + design.md "Run document"), shared by every door that shows
 * a run (HTTP, MCP, the design tool): `run_id`, `state`, `links.self`, `links.cancel`,
 * `api`, `flow_version`, `created_at`, `started_at`, `finished_at`, `progress`, `error`
 * (failed only) and, only when completed, `results: [{key, kind, format, media_type, href,
 * size_bytes, feature_count | row_count}]`.
 *
 * The shapes are zod schemas; the TypeScript types, the OpenAPI response schemas
 * (lib/openapi) and the MCP output schema are all derived from them.
 */
import { z } from "zod";
import { RUN_ERROR_CODES } from "@/lib/errors/run-failure";
import { FORMAT_INFO, ZResultFormat, type TResultFormat } from "@/lib/formats/registry";
import { RUN_STATES, type TRunState } from "@/lib/runs/run-state-names";

/** Run lists (`GET /runs`): page size default and maximum. */
export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;

export const ZRunError = z
  .object({
    code: z
      .enum(RUN_ERROR_CODES)
      .describe(
        "Why, as a stable code (lib/errors/run-failure.ts): a step failed on valid data, the caller's data cannot be used, a limit was exceeded, a bug, the worker was lost, or the run expired.",
      ),
    message: z.string(),
    step: z.string().optional().describe("Id of the step that failed."),
    limit: z
      .string()
      .optional()
      .describe(
        'The limit that was exceeded (resources_exhausted), with its value in this environment: "memory 256 MB", "run time 20 s", "result size 200 MB" or "rows 1,000,000" (the most rows or features one step may produce; `step` names the step).',
      ),
  })
  .describe("Why a failed run failed.");

export const ZResultEntry = z.object({
  key: z.string(),
  kind: z.enum(["layer", "table"]),
  format: ZResultFormat,
  media_type: z.string(),
  href: z.string().describe("Path to download the file."),
  size_bytes: z.int().min(0),
  feature_count: z.int().min(0).optional().describe("Layers only."),
  row_count: z.int().min(0).optional().describe("Tables only."),
});

export const ZRunDocument = z
  .object({
    run_id: z.uuid(),
    state: z.enum(RUN_STATES),
    links: z.object({
      self: z.string().describe("Path of the run."),
      cancel: z.string().describe("Path to POST to cancel it."),
    }),
    api: z.string(),
    flow_version: z.int().describe("The flow version the run executes."),
    created_at: z.iso.datetime(),
    started_at: z.iso.datetime().nullable(),
    finished_at: z.iso.datetime().nullable(),
    progress: z.object({ steps_done: z.int().min(0), steps_total: z.int().min(0) }),
    error: ZRunError.optional(),
    results: z.array(ZResultEntry).optional(),
  })
  .describe("A run. `results` only when completed; `error` only when failed.");

export const ZRunList = z.object({
  runs: z.array(ZRunDocument),
  next_cursor: z.string().nullable().describe("Pass as `cursor` for the next page; null on the last page."),
});

export type TRunError = z.infer<typeof ZRunError>;
export type TRunDocument = z.infer<typeof ZRunDocument>;
export type TRunList = z.infer<typeof ZRunList>;

/** The columns of a run row the document is made from. */
export interface TRunRow {
  id: string;
  state: TRunState;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  stepsDone: number;
  stepsTotal: number;
  error: unknown;
  results?: { key: string; kind: "layer" | "table"; format: string; featureCount: number | null; rowCount: number | null }[];
  files?: { key: string; format: string; sizeBytes: number | bigint }[];
}

/** Where a run's links point and which API it names: `base` is the API base path. */
export interface TRunLinks {
  base: string;
  api: string;
}

/** What every document of a run shows of its state (`self`: the run's path; `error` only when failed), with the document's `own` members after `links`. */
export function runStatus<T extends object>(run: TRunRow, self: string, own: T) {
  return {
    run_id: run.id,
    state: run.state,
    links: { self, cancel: `${self}/cancel` },
    ...own,
    created_at: run.createdAt.toISOString(),
    started_at: run.startedAt?.toISOString() ?? null,
    finished_at: run.finishedAt?.toISOString() ?? null,
    progress: { steps_done: run.stepsDone, steps_total: run.stepsTotal },
    ...(run.state === "failed" ? { error: run.error as TRunError } : {}),
  };
}

/**
 * Serialises a run. A completed run lists its results when `run.results` (and `run.files`) are
 * loaded; run lists leave them out (fetch one run for its results).
 */
export function runDocument(run: TRunRow, links: TRunLinks, flowVersion: number): TRunDocument {
  const self = `${links.base}/runs/${run.id}`;
  const doc: TRunDocument = runStatus(run, self, { api: links.api, flow_version: flowVersion });
  if (run.state === "completed" && run.results) {
    doc.results = run.results.map((r) => {
      const file = run.files?.find((f) => f.key === r.key && f.format === r.format);
      return {
        key: r.key,
        kind: r.kind,
        format: r.format as TResultFormat,
        media_type: FORMAT_INFO[r.format as TResultFormat].mediaType,
        href: `${self}/results/${encodeURIComponent(r.key)}`,
        size_bytes: Number(file?.sizeBytes ?? 0),
        ...(r.kind === "layer" ? { feature_count: r.featureCount ?? 0 } : { row_count: r.rowCount ?? 0 }),
      };
    });
  }
  return doc;
}
