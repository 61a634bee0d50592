/**
 * Sends one webhook delivery (job `webhook-deliver`, lib/jobs/registry.ts), following
 * Standard Webhooks (standardwebhooks.com, the `standardwebhooks` package):
 *
 * - headers `webhook-id` (the delivery's id, the same on every retry, for the receiver's
 *   deduplication), `webhook-timestamp` (Unix seconds of this attempt) and, for an endpoint,
 *   `webhook-signature` (`v1,<base64 HMAC-SHA256>` of `id.timestamp.body` with the endpoint's
 *   secret); a run's own `subscriber` has no secret, so its calls are not signed;
 * - an endpoint's body `{"type": "run.completed" | "run.failed" | "run.cancelled",
 *   "timestamp": ISO 8601, "data": <run document>}`; a subscriber's body is the run document
 *   (HTTP door) or what its door makes of it (`bodies.ogc`: OGC statusInfo or results);
 * - through `outboundFetch` (lib/net/outbound-fetch.ts: https, public addresses checked at
 *   connect time, each redirect checked) with a 10 s limit; any 2xx is delivered.
 *
 * Of the answer only the status and its first 200 bytes are kept. A failed attempt throws, so
 * pg-boss retries it with backoff for about a day; a refused URL (private address, redirect to
 * one) is not retried. When a delivery fails its last attempt, its endpoint's
 * `consecutiveFailures` grows; the endpoint is disabled, with the reason shown in the console,
 * when that happens after a day without any delivered call (`failingSince` a day or more ago):
 * i.e. it failed every delivery for a day. Any delivered call resets both.
 */
import "server-only";
import { Webhook } from "standardwebhooks";
import { db } from "@/lib/db";
import { WEBHOOK_ATTEMPTS } from "@/lib/jobs/registry";
import type { TWebhookDeliverJob } from "@/lib/jobs/schemas";
import { OutboundUrlError, outboundFetch, readFirstBytes } from "@/lib/net/outbound-fetch";
import { runDocument, type TRunDocument, type TRunRow } from "@/lib/runs/run-document";
import type { TStoredSubscriber } from "@/lib/runs/run-webhooks";
import { apiBasePath } from "@/lib/runs/scope";

/** Time limit of one attempt (connect, headers and the first bytes of the body). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Bytes of a receiver's answer kept for the console. */
export const RESPONSE_HEAD_BYTES = 200;
/** An endpoint that delivered nothing for this long when a delivery finally fails is disabled. */
export const DISABLE_AFTER_MS = 24 * 3600_000;

/** Makes the body of a callback to a subscriber of the OGC door (lib/ogc/callback-body.ts; `ogcAnswer`: the run's, as stored). */
export type TCallbackBody = (doc: TRunDocument, subscriber: TStoredSubscriber, event: string, ogcAnswer: unknown) => Promise<unknown>;

/** Thrown for a failed attempt, so pg-boss retries the job. */
class DeliveryFailed extends Error {
  name = "DeliveryFailed";
}

/**
 * The run document a delivery of `event` carries. `run.running` (a subscriber's `inProgressUri`)
 * shows the run as it was when it started (running, no step done, no results): its delivery is
 * sent, or retried, after the run may have ended, and a body that said "successful" to the
 * in-progress callback would contradict the one sent to `successUri`.
 */
async function loadRunDocument(runId: string, event: string) {
  const run = await db.run.findUniqueOrThrow({
    where: { id: runId },
    include: {
      results: { select: { key: true, kind: true, format: true, featureCount: true, rowCount: true } },
      files: { select: { key: true, format: true, sizeBytes: true } },
      flowVersion: { select: { version: true } },
      flowApi: { select: { slug: true } },
      environment: { select: { slug: true, outboundHosts: true, organization: { select: { slug: true } } } },
    },
  });
  const api = run.flowApi?.slug ?? "";
  const base = apiBasePath({ organization: run.environment?.organization.slug ?? "", environment: run.environment?.slug ?? "", api });
  const row = run as unknown as TRunRow;
  const asOfEvent: TRunRow = event === "run.running" ? { ...row, state: "running", finishedAt: null, stepsDone: 0, error: null, results: undefined } : row;
  const doc = runDocument(asOfEvent, { base, api }, run.flowVersion?.version ?? 0);
  return { doc, subscriber: run.subscriber as TStoredSubscriber | null, ogcAnswer: run.ogcAnswer, allowHosts: run.environment?.outboundHosts ?? [] };
}

/** Runs one attempt of delivery `deliveryId` (see module doc). */
export async function deliverWebhook(data: TWebhookDeliverJob, ctx: { signal?: AbortSignal; bodies: { ogc: TCallbackBody } }): Promise<void> {
  const delivery = await db.webhookDelivery.findUnique({ where: { id: data.deliveryId }, include: { endpoint: true } });
  if (!delivery || delivery.state !== "pending") return;
  if (delivery.endpoint && !delivery.endpoint.enabled) {
    await db.webhookDelivery.update({
      where: { id: delivery.id },
      data: { state: "failed", lastError: "The endpoint was disabled.", finishedAt: new Date() },
    });
    return;
  }
  const { doc, subscriber, ogcAnswer, allowHosts } = await loadRunDocument(delivery.runId, delivery.event);
  const now = new Date();
  let body: string;
  if (delivery.endpoint) body = JSON.stringify({ type: delivery.event, timestamp: now.toISOString(), data: doc });
  else if (subscriber?.door === "ogc") body = JSON.stringify(await ctx.bodies.ogc(doc, subscriber, delivery.event, ogcAnswer));
  else body = JSON.stringify(doc);
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "flow-api-webhooks/1",
    "webhook-id": delivery.id,
    "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
  };
  if (delivery.endpoint) headers["webhook-signature"] = new Webhook(delivery.endpoint.secret).sign(delivery.id, now, body);

  let status: number | null = null;
  let head: string | null = null;
  let error: string | null = null;
  let permanent = false;
  try {
    const res = await outboundFetch(delivery.url, { method: "POST", headers, body, allowHosts, timeoutMs: DELIVERY_TIMEOUT_MS, signal: ctx.signal });
    status = res.status;
    head = await readFirstBytes(res, RESPONSE_HEAD_BYTES).catch(() => "");
  } catch (err) {
    permanent = err instanceof OutboundUrlError;
    error = permanent ? (err as OutboundUrlError).reason : describeNetworkError(err);
  }
  const ok = status !== null && status >= 200 && status < 300;
  const attempts = delivery.attempts + 1;
  const final = ok || permanent || attempts >= WEBHOOK_ATTEMPTS;
  await db.$transaction(async (tx) => {
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: {
        attempts,
        lastStatus: status,
        lastError: error,
        responseHead: head,
        lastAttemptAt: now,
        ...(final ? { state: ok ? "delivered" : "failed", finishedAt: new Date() } : {}),
      },
    });
    if (!delivery.endpointId) return;
    if (ok) {
      await tx.webhookEndpoint.update({ where: { id: delivery.endpointId }, data: { consecutiveFailures: 0, failingSince: null } });
      return;
    }
    // The first failure of a streak starts it; a later one keeps its start.
    await tx.webhookEndpoint.updateMany({ where: { id: delivery.endpointId, failingSince: null }, data: { failingSince: now } });
    if (!final) return;
    const endpoint = await tx.webhookEndpoint.update({
      where: { id: delivery.endpointId },
      data: { consecutiveFailures: { increment: 1 } },
    });
    if (endpoint.enabled && endpoint.failingSince && now.getTime() - endpoint.failingSince.getTime() >= DISABLE_AFTER_MS) {
      await tx.webhookEndpoint.update({
        where: { id: endpoint.id },
        data: {
          enabled: false,
          disabledAt: now,
          disabledReason: `Disabled on ${now.toISOString().slice(0, 16).replace("T", " ")} UTC: every delivery failed since ${endpoint.failingSince
            .toISOString()
            .slice(0, 16)
            .replace("T", " ")} UTC (last: ${status !== null ? `HTTP ${status}` : error}).`,
        },
      });
    }
  });
  if (!final)
    throw new DeliveryFailed(`Webhook delivery ${delivery.id}: ${status !== null ? `HTTP ${status}` : error}; attempt ${attempts} of ${WEBHOOK_ATTEMPTS}.`);
}

/** A short reason for a failed request without a status (no internals). */
function describeNetworkError(err: unknown): string {
  const name = (err as { name?: string }).name;
  if (name === "TimeoutError" || name === "AbortError") return `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s.`;
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return `Request failed: ${cause?.code ?? cause?.message ?? (err as Error).message ?? "network error"}.`;
}
