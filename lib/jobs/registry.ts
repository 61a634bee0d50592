/**
 * Every background job in one place: name -> payload schema and queue options. The code
 * that enqueues (in the same transaction as the row the job refers to) and the worker both
 * use this registry; the worker pairs each name with its handler in worker/job-handlers.ts
 * (typed against these names, so a job without a handler does not compile). Handlers live
 * with the worker, not here, so the domain that enqueues never depends on the code that
 * runs the jobs (no lib/jobs <-> lib/runs cycle) and the web process never loads the engine.
 */
import { z } from "zod";
import type { QueueOptions } from "pg-boss";
import { ZLayerImportJob, ZPurgeJob, ZResultFormatJob, ZRunJob, ZWebhookDeliverJob } from "@/lib/jobs/schemas";

interface TJobDefinition<S extends z.ZodType> {
  schema: S;
  /** Options of the queue, and of every job sent to it (so existing queues get them too). */
  queue: QueueOptions & { notify?: boolean; deadLetter?: string };
  /** Cron schedule (UTC) for periodic jobs. */
  cron?: string;
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
  }),
  /** Dead letters of "run-execute": the run failed on every attempt (its worker died). */
  "run-dead": defineJob({
    schema: ZRunJob,
    queue: { expireInSeconds: 60, retryLimit: 5, retryDelay: 5 },
  }),
  /**
   * Makes a format of a completed run's result that nobody asked for before (a download asks
   * for it; one job per run, key and format at a time). Its own time budget, independent of the
   * run's; retried with backoff, and a later download enqueues it again.
   */
  "result-format": defineJob({
    schema: ZResultFormatJob,
    queue: { expireInSeconds: 10 * 60, heartbeatSeconds: 10, retryLimit: 2, retryDelay: 2, retryBackoff: true, notify: true },
  }),
  /** Parses, validates, sorts and writes one uploaded layer file (lib/layers/run-layer-import.ts). */
  "layer-import": defineJob({
    schema: ZLayerImportJob,
    queue: { expireInSeconds: 2 * 60 * 60, heartbeatSeconds: 15, retryLimit: 1, retryDelay: 5, notify: true },
  }),
  /**
   * Sends one webhook delivery (lib/webhooks/deliver-webhook.ts), queued with the run's final
   * state. A failed attempt is retried with exponential backoff (30 s doubling, with jitter,
   * at most an hour apart): its 30 retries span about a day (`WEBHOOK_ATTEMPTS` attempts). Each attempt has a
   * 10 s time limit for the request and a minute for the job.
   */
  "webhook-deliver": defineJob({
    schema: ZWebhookDeliverJob,
    queue: { expireInSeconds: 60, retryLimit: 30, retryDelay: 30, retryBackoff: true, retryDelayMax: 3600, notify: true },
  }),
  /** Removes expired idempotency records and result files past retention. */
  "maintenance-purge": defineJob({
    schema: ZPurgeJob,
    queue: { expireInSeconds: 10 * 60, retryLimit: 0 },
    cron: "*/15 * * * *",
  }),
} as const;

export type TJobName = keyof typeof jobs;
/** Attempts of a webhook delivery: the first and its retries (about a day, see "webhook-deliver"). */
export const WEBHOOK_ATTEMPTS = (jobs["webhook-deliver"].queue.retryLimit ?? 0) + 1;
export const JOB_NAMES = Object.keys(jobs) as TJobName[];
export type TJobData<N extends TJobName> = z.infer<(typeof jobs)[N]["schema"]>;
