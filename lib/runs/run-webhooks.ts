/**
 * What a run's final state (and, for an OGC `subscriber`, its start) owes to webhooks: the
 * events, the run's stored subscriber, and the SQL that queues one `webhook_delivery` row per
 * receiver inside the statement that changes the state (lib/runs/run-state.ts), whose pg-boss
 * jobs (`webhook-deliver`) are then sent in the same transaction: a final run has its
 * deliveries queued exactly when its state is committed, even if the worker dies right after.
 *
 * Receivers: every enabled endpoint of the run's consumer that subscribes to the event
 * (lib/webhooks), and the run's own `subscriber` URI for it (OGC 18-062r2 callback:
 * `successUri` for run.completed, `failedUri` for run.failed and run.cancelled, `inProgressUri`
 * for run.running, sent once when the run starts).
 */
import "server-only";
import type { PoolClient } from "pg";
import type { TTx } from "@/lib/db";
import { enqueue } from "@/lib/jobs/boss";
import type { TFinalState } from "@/lib/runs/run-state-names";
import type { TSubscriber } from "@/lib/flows/subscriber";
import type { TRunEvent } from "@/lib/runs/webhook-events";

/**
 * A subscriber as stored with its run: the URIs, and the door that shapes the callback bodies
 * (`http`: the run document; `ogc`: statusInfo, or the results for success as the run's
 * `ogcAnswer` asks, with the door's absolute `base` and `origin` for their links).
 */
export interface TStoredSubscriber extends TSubscriber {
  door: "http" | "ogc";
  base?: string;
  origin?: string;
}

/** The event of each final state. */
export const EVENT_OF: Record<TFinalState, TRunEvent> = { completed: "run.completed", failed: "run.failed", cancelled: "run.cancelled" };

/** Which subscriber URI an event goes to. */
export const SUBSCRIBER_URI_OF: Record<TRunEvent | "run.running", keyof TSubscriber> = {
  "run.completed": "successUri",
  "run.failed": "failedUri",
  "run.cancelled": "failedUri",
  "run.running": "inProgressUri",
};

/**
 * A CTE body that inserts the deliveries of `event` for the run rows of CTE `from` (which must
 * return `id`, `consumerId` and `subscriber`); `eventParam`/`uriParam` are the SQL parameters
 * holding the event name and the subscriber key. Returns the delivery ids (`RETURNING "id"`).
 */
export function queueDeliveriesSql(from: string, eventParam: string, uriParam: string, endpoints = true): string {
  const toEndpoints = `SELECT gen_random_uuid(), e."id", d."id", ${eventParam}, e."url" FROM ${from} d
      JOIN "webhook_endpoint" e ON e."consumerId" = d."consumerId" AND e."enabled" AND ${eventParam} = ANY(e."events")
    UNION ALL `;
  return `INSERT INTO "webhook_delivery" ("id", "endpointId", "runId", "event", "url")
    ${endpoints ? toEndpoints : ""}SELECT gen_random_uuid(), NULL, d."id", ${eventParam}, d."subscriber"->>${uriParam} FROM ${from} d
      WHERE d."subscriber"->>${uriParam} IS NOT NULL
    RETURNING "id"`;
}

/** Sends the `webhook-deliver` job of each delivery inside the transaction `tx`. */
export async function enqueueDeliveries(tx: TTx | PoolClient, deliveryIds: readonly string[]): Promise<void> {
  for (const deliveryId of deliveryIds) await enqueue(tx, "webhook-deliver", { deliveryId });
}
