/**
 * A consumer's webhook endpoints, for the console (lib/runs/scope.ts `TEnvironmentRef`: an
 * endpoint of a consumer of another environment is `not_found`):
 *
 * - `createWebhookEndpoint`: URL (checked like every outbound URL, lib/net/outbound-fetch.ts,
 *   against the environment's allow-list) and events; returns the signing secret
 *   `whsec_<base64>` (Standard Webhooks), shown this once.
 * - `listWebhookEndpoints`: the endpoints of a consumer with their state and recent deliveries.
 * - `enableWebhookEndpoint`: re-enables a disabled endpoint (its failure streak starts over).
 * - `deleteWebhookEndpoint`: removes it with its delivery log.
 *
 * Errors: `not_found`, `validation_failed` at `/url` or `/events`.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { parseOrThrow } from "@/lib/errors/zod-issues";
import { getConsumerOrThrow } from "@/lib/consumers/get-consumer-or-throw";
import { outboundUrlFaults } from "@/lib/net/outbound-fetch";
import { readOutboundHosts } from "@/lib/net/outbound-hosts";
import { RUN_EVENTS } from "@/lib/runs/webhook-events";
import { ZWebhookEndpointInput, type TWebhookEndpointInput } from "@/lib/webhooks/endpoint-input";
import type { TEnvironmentRef } from "@/lib/runs/scope";

/** Endpoints one consumer may have. */
export const MAX_ENDPOINTS_PER_CONSUMER = 10;
/** Deliveries listed per endpoint in the console. */
export const DELIVERIES_LISTED = 20;

/** A new signing secret: `whsec_` and the base64 of 24 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

export async function createWebhookEndpoint(
  scope: TEnvironmentRef,
  consumerId: string,
  raw: TWebhookEndpointInput,
): Promise<{ id: string; url: string; events: string[]; secret: string }> {
  const input = parseOrThrow(ZWebhookEndpointInput, raw);
  await getConsumerOrThrow(scope, consumerId);
  const urlFaults = outboundUrlFaults([["/url", input.url]], await readOutboundHosts(scope.environmentId));
  if (urlFaults.length) throw new AppError("validation_failed", urlFaults[0]!.message, { errors: urlFaults });
  const count = await db.webhookEndpoint.count({ where: { consumerId } });
  if (count >= MAX_ENDPOINTS_PER_CONSUMER) {
    throw new AppError("validation_failed", `A consumer may have at most ${MAX_ENDPOINTS_PER_CONSUMER} webhook endpoints.`, {
      errors: [{ field: "/url", code: "too_many", message: `At most ${MAX_ENDPOINTS_PER_CONSUMER} endpoints per consumer.` }],
    });
  }
  const secret = newWebhookSecret();
  const events = RUN_EVENTS.filter((e) => input.events.includes(e));
  const row = await db.webhookEndpoint.create({ data: { consumerId, url: input.url, events, secret } });
  return { id: row.id, url: row.url, events: row.events, secret };
}

export interface TWebhookDeliveryRow {
  id: string;
  runId: string;
  event: string;
  state: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  responseHead: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
}

export interface TWebhookEndpointRow {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  disabledReason: string | null;
  consecutiveFailures: number;
  createdAt: string;
  deliveries: TWebhookDeliveryRow[];
}

export async function listWebhookEndpoints(scope: TEnvironmentRef, consumerId: string): Promise<TWebhookEndpointRow[]> {
  await getConsumerOrThrow(scope, consumerId);
  const rows = await db.webhookEndpoint.findMany({
    where: { consumerId },
    orderBy: { createdAt: "asc" },
    include: { deliveries: { orderBy: { createdAt: "desc" }, take: DELIVERIES_LISTED } },
  });
  return rows.map((e) => ({
    id: e.id,
    url: e.url,
    events: e.events,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    consecutiveFailures: e.consecutiveFailures,
    createdAt: e.createdAt.toISOString(),
    deliveries: e.deliveries.map((d) => ({
      id: d.id,
      runId: d.runId,
      event: d.event,
      state: d.state,
      attempts: d.attempts,
      lastStatus: d.lastStatus,
      lastError: d.lastError,
      responseHead: d.responseHead,
      createdAt: d.createdAt.toISOString(),
      lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    })),
  }));
}

async function endpointOrThrow(scope: TEnvironmentRef, endpointId: string) {
  const endpoint = await db.webhookEndpoint.findFirst({ where: { id: endpointId, consumer: { environmentId: scope.environmentId } } });
  if (!endpoint) throw new AppError("not_found", "No such webhook endpoint in this environment.");
  return endpoint;
}

export async function enableWebhookEndpoint(scope: TEnvironmentRef, endpointId: string): Promise<void> {
  await endpointOrThrow(scope, endpointId);
  await db.webhookEndpoint.update({
    where: { id: endpointId },
    data: { enabled: true, disabledAt: null, disabledReason: null, consecutiveFailures: 0, failingSince: null },
  });
}

export async function deleteWebhookEndpoint(scope: TEnvironmentRef, endpointId: string): Promise<void> {
  await endpointOrThrow(scope, endpointId);
  await db.webhookEndpoint.delete({ where: { id: endpointId } });
}
