/**
 * Every background job in one place: name -> payload schema, queue options and handler.
 * The code that enqueues (route handlers, in the same transaction as the row the job
 * refers to) and the worker both use this registry. Handlers are loaded lazily so the web
 * process never loads the flow engine.
 */
import { z } from "zod";
import type { QueueOptions } from "pg-boss";
import { ZPurgeJob, ZRunJob } from "@/lib/jobs/schemas";


// The payload is typed by `schema`; handlers declare their own parameter type from it.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TJobHandler = (data: any, ctx: { signal: AbortSignal; jobId: string }) => Promise<void>;

interface TJobDefinition<S extends z.ZodType> {
  schema: S;
  /** Options of the queue, and of every job sent to it (so existing queues get them too). */
  queue: QueueOptions & { notify?: boolean; deadLetter?: string };
  /** Cron schedule (UTC) for periodic jobs. */
  cron?: string;
  /** Loads the handler; the worker calls it with the payload already parsed by `schema`. */
  handler: () => Promise<TJobHandler>;
}

function defineJob<S extends z.ZodType>(def: TJobDefinition<S>): TJobDefinition<S> {
  return def;
}

export const jobs = {
  /**
   * Executes one run. The worker sends a heartbeat while it works; a worker that dies
   * mid-run misses it, and pg-boss's supervisor (in any live worker) retries the job once
   * within `heartbeatSeconds` + the supervise interval. After the last failed attempt the
   * job goes to "run-dead", which fails the run: a run is never left `running`.
   */
  "run-execute": defineJob({
    schema: ZRunJob,
    queue: { expireInSeconds: 30 * 60, heartbeatSeconds: 10, retryLimit: 1, retryDelay: 1, notify: true, deadLetter: "run-dead" },
    handler: () => import("@/lib/runs/execute-run").then((m) => m.executeRunJob),
  }),
  /** Dead letters of "run-execute": the run failed on every attempt (its worker died). */
  "run-dead": defineJob({
    schema: ZRunJob,
    queue: { expireInSeconds: 60, retryLimit: 5, retryDelay: 5 },
    handler: () => import("@/lib/runs/fail-lost-run").then((m) => m.failLostRun),
  }),
  /** Removes expired idempotency records and result files past retention. */
  "maintenance-purge": defineJob({
    schema: ZPurgeJob,
    queue: { expireInSeconds: 10 * 60, retryLimit: 0 },
    cron: "*/15 * * * *",
    handler: () => import("@/lib/runs/purge").then((m) => m.purgeExpired),
  }),
} as const;

export type TJobName = keyof typeof jobs;
export const JOB_NAMES = Object.keys(jobs) as TJobName[];
export type TJobData<N extends TJobName> = z.infer<(typeof jobs)[N]["schema"]>;
