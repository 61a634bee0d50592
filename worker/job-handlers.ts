/**
 * The handler of every job of lib/jobs/registry.ts, loaded lazily (the engine is imported
 * only when a worker first runs a flow). The worker calls a handler with the payload
 * already parsed by the job's schema; run and format jobs also get the worker's run pool
 * (worker/runtime/run-pool.ts) to execute in.
 */
import type { TJobData, TJobName } from "@/lib/jobs/registry";
import { runPool } from "@/worker/runtime/run-pool";

/** A job's handler; what it resolves to is not used. */
export type TJobHandler<N extends TJobName> = (data: TJobData<N>, ctx: { signal: AbortSignal; jobId: string }) => Promise<unknown>;

export const JOB_HANDLERS: { [N in TJobName]: () => Promise<TJobHandler<N>> } = {
  "run-execute": () => import("@/lib/runs/execute-run").then((m) => (data, ctx) => m.executeRunJob(data, { ...ctx, runner: runPool() })),
  "run-dead": () => import("@/lib/runs/fail-lost-run").then((m) => m.failLostRun),
  "result-format": () => import("@/lib/runs/make-result-format").then((m) => (data, ctx) => m.makeResultFormatJob(data, { ...ctx, runner: runPool() })),
  "layer-import": () => import("@/lib/layers/run-layer-import").then((m) => m.runLayerImportJob),
  "webhook-deliver": () =>
    Promise.all([import("@/lib/webhooks/deliver-webhook"), import("@/lib/ogc/callback-body")]).then(
      ([m, ogc]) =>
        (data, ctx) =>
          m.deliverWebhook(data, { signal: ctx.signal, bodies: { ogc: ogc.ogcCallbackBody } }),
    ),
  "maintenance-purge": () => import("@/lib/runs/purge").then((m) => m.purgeExpired),
};
