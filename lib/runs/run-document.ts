/**
 * The run document of the public API (spec "Run" + design.md "Run document"):
 * `run_id`, `state`, `links.self`, `links.cancel`, `api`, `flow_version`, `created_at`,
 * `started_at`, `finished_at`, `progress`, `error` (failed only) and, only when completed,
 * `results: [{key, kind, format, media_type, href, size_bytes, feature_count | row_count}]`.
 */
import { FORMAT_INFO, type TResultFormat } from "@/lib/formats/types";

export interface TRunRow {
  id: string;
  state: "queued" | "running" | "completed" | "failed" | "cancelled";
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  stepsDone: number;
  stepsTotal: number;
  error: unknown;
  results?: { key: string; kind: "layer" | "table"; format: string; featureCount: number | null; rowCount: number | null }[];
  files?: { key: string; format: string; sizeBytes: number }[];
}

export interface TRunDocument {
  run_id: string;
  state: TRunRow["state"];
  links: { self: string; cancel: string };
  api: string;
  flow_version: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  progress: { steps_done: number; steps_total: number };
  error?: unknown;
  results?: {
    key: string;
    kind: "layer" | "table";
    format: string;
    media_type: string;
    href: string;
    size_bytes: number;
    feature_count?: number;
    row_count?: number;
  }[];
}

/** Every run state, in lifecycle order. */
export const RUN_STATES = ["queued", "running", "completed", "failed", "cancelled"] as const;
/** Run lists (`GET /runs`): page size default and maximum. */
export const LIST_LIMIT_DEFAULT = 20;
export const LIST_LIMIT_MAX = 100;

export const FINAL_STATES = new Set(["completed", "failed", "cancelled"]);

/** Path of the API base: `/public/api/{organization}/{environment}/{api}`. */
export function apiBasePath(p: { organization: string; environment: string; api: string }): string {
  return `/public/api/${p.organization}/${p.environment}/${p.api}`;
}

/**
 * Serialises a run for the public API. `run.results`/`run.files` are needed when completed,
 * unless `opts.withResults` is false (run lists: fetch one run for its results).
 */
export function runDocument(
  run: TRunRow,
  base: string,
  api: { slug: string; flowVersion: number },
  opts: { withResults?: boolean } = {},
): TRunDocument {
  const self = `${base}/runs/${run.id}`;
  const doc: TRunDocument = {
    run_id: run.id,
    state: run.state,
    links: { self, cancel: `${self}/cancel` },
    api: api.slug,
    flow_version: api.flowVersion,
    created_at: run.createdAt.toISOString(),
    started_at: run.startedAt?.toISOString() ?? null,
    finished_at: run.finishedAt?.toISOString() ?? null,
    progress: { steps_done: run.stepsDone, steps_total: run.stepsTotal },
  };
  if (run.state === "failed") doc.error = run.error;
  if (run.state === "completed" && opts.withResults !== false) {
    doc.results = (run.results ?? []).map((r) => {
      const file = run.files?.find((f) => f.key === r.key && f.format === r.format);
      return {
        key: r.key,
        kind: r.kind,
        format: r.format,
        media_type: FORMAT_INFO[r.format as TResultFormat].mediaType,
        href: `${self}/results/${encodeURIComponent(r.key)}`,
        size_bytes: file?.sizeBytes ?? 0,
        ...(r.kind === "layer" ? { feature_count: r.featureCount ?? 0 } : { row_count: r.rowCount ?? 0 }),
      };
    });
  }
  return doc;
}
