/**
 * Webhooks and run callbacks over real HTTP: a local receiver on 127.0.0.1, reached through an
 * environment's outbound allow-list, verifies every signature with the `standardwebhooks`
 * verifier. Covered: completed, failed and cancelled events; retries after a 500; the delivery
 * queued in the transaction of the final state; a private URL refused with a field error; a
 * redirect to a private address not followed; the HTTP door's and the OGC door's `subscriber`
 * (OGC 18-062r2 callback); the rule that disables an endpoint failing for a day.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { db } from "@/lib/db";
import { WEBHOOK_ATTEMPTS } from "@/lib/jobs/registry";
import { finalizeRun } from "@/lib/runs/run-state";
import { apiBasePath } from "@/lib/runs/scope";
import { createWebhookEndpoint, enableWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import { apiPath, http, pollRun, sql, waitFor } from "./helpers";
import { createConsumer, createEnvironment, createFlowApi, demoIds, FAILING_FLOW, SLOW_FLOW, TINY_FLOW, ZURICH_AREA } from "./contract-helpers";
import { RECEIVER_BODY, startReceiver, type TReceiver } from "./webhook-receiver";

const TINY_BODY = { inputs: { area: { area: ZURICH_AREA } } };
const FEW_CITIES = {
  type: "FeatureCollection",
  features: [{ type: "Feature", geometry: { type: "Point", coordinates: [8.54, 47.37] }, properties: { name: "Zurich" } }],
};

let receiver: TReceiver;
let env: { id: string; slug: string };
let ref: { organizationId: string; environmentId: string };
const apis: Record<"tiny" | "failing" | "slow", string> = { tiny: "", failing: "", slow: "" };

/** Publishes API `slug` (already in the demo workspace) into the test environment too. */
async function publishInto(slug: string): Promise<void> {
  await sql().query(
    `WITH a AS (SELECT id, "selectedFlowVersionId" AS v FROM flow_api WHERE slug = $1),
     r AS (INSERT INTO release (id, "flowApiId", "environmentId", "flowVersionId", number) SELECT gen_random_uuid(), a.id, $2, a.v, 1 FROM a RETURNING id, "flowApiId")
     INSERT INTO environment_api ("environmentId", "flowApiId", "releaseId", "updatedAt") SELECT $2, r."flowApiId", r.id, now() FROM r`,
    [slug, env.id],
  );
}

/** A consumer of the test environment, with a key and grants on every test API. */
async function consumer() {
  return createConsumer({ environmentId: env.id, grants: Object.values(apis) });
}

function runsPath(api: string): string {
  return `${apiBasePath({ organization: "demo", environment: env.slug, api })}/runs`;
}

async function deliveriesOf(runId: string) {
  return (await sql().query(`SELECT * FROM webhook_delivery WHERE "runId" = $1 ORDER BY "createdAt"`, [runId])).rows;
}

/** Lets the retry of a delivery's job start now instead of after its backoff. */
async function retryNow(deliveryId: string): Promise<void> {
  await waitFor(
    "the delivery's job to wait for its retry",
    async () =>
      (
        await sql().query(`UPDATE pgboss.job SET start_after = now() WHERE name = 'webhook-deliver' AND state = 'retry' AND data->>'deliveryId' = $1`, [
          deliveryId,
        ])
      ).rowCount,
    20_000,
  );
}

/** Verifies a received delivery's signature with the endpoint's secret; returns the payload. */
function verified(secret: string, r: { headers: Record<string, string>; body: string }): any {
  return new Webhook(secret).verify(r.body, {
    "webhook-id": r.headers["webhook-id"]!,
    "webhook-timestamp": r.headers["webhook-timestamp"]!,
    "webhook-signature": r.headers["webhook-signature"]!,
  });
}

beforeAll(async () => {
  receiver = await startReceiver();
  env = await createEnvironment();
  ref = { organizationId: (await demoIds()).organizationId, environmentId: env.id };
  await sql().query(`UPDATE environment SET "outboundHosts" = ARRAY['127.0.0.1'] WHERE id = $1`, [env.id]);
  await sql().query(`INSERT INTO environment_layer ("environmentId", "workspaceId", "layerId") VALUES ($1, $2, 'world-cities')`, [
    env.id,
    (await demoIds()).workspaceId,
  ]);
  apis.tiny = await createFlowApi({ definition: TINY_FLOW });
  apis.failing = await createFlowApi({ definition: FAILING_FLOW });
  apis.slow = await createFlowApi({ definition: SLOW_FLOW });
  for (const slug of Object.values(apis)) await publishInto(slug);
});

afterAll(async () => {
  await sql().query(`UPDATE run SET state = 'cancelled', "finishedAt" = now() WHERE state IN ('queued', 'running')`);
  await receiver.close();
});

describe("endpoint deliveries (Standard Webhooks)", () => {
  it("posts run.completed, signed, with the run document; keeps the status and the first 200 bytes of the answer", async () => {
    const c = await consumer();
    const hook = await createWebhookEndpoint(ref, c.consumerId, { url: `${receiver.origin}/completed`, events: ["run.completed"] });
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const r = await http("POST", runsPath(apis.tiny), { key: c.secret, body: { ...TINY_BODY, wait_seconds: 30 } });
    expect(r.status, r.text).toBe(200);
    const got = await waitFor("the delivery", async () => receiver.to("/completed")[0], 20_000);
    const payload = verified(hook.secret, got);
    expect(payload.type).toBe("run.completed");
    expect(Date.parse(payload.timestamp)).not.toBeNaN();
    expect(payload.data).toEqual(r.body);
    expect(got.headers["webhook-id"]).toBeTruthy();
    const row = await waitFor("the delivery to be recorded", async () => (await deliveriesOf(r.body.run_id)).find((d) => d.state !== "pending"), 10_000);
    expect(row).toMatchObject({ state: "delivered", attempts: 1, lastStatus: 200, event: "run.completed", endpointId: hook.id });
    expect(row.id).toBe(got.headers["webhook-id"]);
    expect(row.responseHead).toBe(RECEIVER_BODY.slice(0, 200));
  });

  it("posts run.failed with the run's error, and nothing to an endpoint that did not subscribe to it", async () => {
    const c = await consumer();
    const failed = await createWebhookEndpoint(ref, c.consumerId, { url: `${receiver.origin}/failed`, events: ["run.failed"] });
    await createWebhookEndpoint(ref, c.consumerId, { url: `${receiver.origin}/only-completed`, events: ["run.completed"] });
    const r = await http("POST", runsPath(apis.failing), { key: c.secret, body: { inputs: { cities: { geojson: FEW_CITIES } }, wait_seconds: 30 } });
    expect(r.body.state, r.text).toBe("failed");
    const got = await waitFor("the delivery", async () => receiver.to("/failed")[0], 20_000);
    const payload = verified(failed.secret, got);
    expect(payload.type).toBe("run.failed");
    expect(payload.data.error).toEqual(r.body.error);
    expect(await deliveriesOf(r.body.run_id)).toHaveLength(1);
    expect(receiver.to("/only-completed")).toHaveLength(0);
  });

  it("posts run.cancelled when a running run is cancelled", async () => {
    const c = await consumer();
    const hook = await createWebhookEndpoint(ref, c.consumerId, { url: `${receiver.origin}/cancelled`, events: ["run.cancelled", "run.failed"] });
    const r = await http("POST", runsPath(apis.slow), { key: c.secret, body: { inputs: { cities: { layer_id: "world-cities" } } } });
    expect(r.status, r.text).toBe(202);
    await waitFor("the run to start", async () => (await http("GET", r.body.links.self, { key: c.secret })).body.state === "running", 30_000);
    const cancel = await http("POST", r.body.links.cancel, { key: c.secret });
    expect(cancel.status, cancel.text).toBe(200);
    const got = await waitFor("the delivery", async () => receiver.to("/cancelled")[0], 20_000);
    const payload = verified(hook.secret, got);
    expect(payload).toMatchObject({ type: "run.cancelled", data: { run_id: r.body.run_id, state: "cancelled" } });
  });

  it("retries a delivery the receiver answered with 500, with the same webhook-id, until it answers 200", async () => {
    const c = await consumer();
    receiver.answer("/flaky", 500);
    const hook = await createWebhookEndpoint(ref, c.consumerId, { url: `${receiver.origin}/flaky`, events: ["run.completed"] });
    const r = await http("POST", runsPath(apis.tiny), { key: c.secret, body: { ...TINY_BODY, wait_seconds: 30 } });
    const first = await waitFor("the first attempt", async () => (await deliveriesOf(r.body.run_id)).find((d) => d.attempts === 1), 20_000);
    expect(first).toMatchObject({ state: "pending", lastStatus: 500 });
    await retryNow(first.id);
    const done = await waitFor("the retry", async () => (await deliveriesOf(r.body.run_id)).find((d) => d.state === "delivered"), 20_000);
    expect(done).toMatchObject({ attempts: 2, lastStatus: 200 });
    const calls = receiver.to("/flaky");
    expect(calls).toHaveLength(2);
    expect(calls[1]!.headers["webhook-id"]).toBe(calls[0]!.headers["webhook-id"]);
    for (const call of calls) expect(verified(hook.secret, call).type).toBe("run.completed");
    const endpoint = (await sql().query(`SELECT "consecutiveFailures", "failingSince" FROM webhook_endpoint WHERE id = $1`, [hook.id])).rows[0];
    expect(endpoint).toEqual({ consecutiveFailures: 0, failingSince: null });
  });

  it("queues the delivery's job in the transaction of the final state", async () => {
    const c = await consumer();
    await createWebhookEndpoint(ref, c.consumerId, { url: `${receiver.origin}/tx`, events: ["run.failed", "run.cancelled"] });
    const r = await http("POST", runsPath(apis.slow), { key: c.secret, body: { inputs: { cities: { layer_id: "world-cities" } } } });
    await waitFor("the run to start", async () => (await http("GET", r.body.links.self, { key: c.secret })).body.state === "running", 30_000);
    const jobsOf = `SELECT count(*)::int AS n FROM pgboss.job j JOIN webhook_delivery d ON j.data->>'deliveryId' = d.id::text WHERE d."runId" = $1`;
    // Inside the transaction: the final state, the delivery row and its job all exist; rolled back, none of them.
    const rollback = new Error("roll back");
    const inside = await db
      .$transaction(async (tx) => {
        await finalizeRun(tx, { runId: r.body.run_id, to: "failed", error: { code: "worker_lost", message: "test" } });
        const seen = await tx.$queryRawUnsafe<{ n: number }[]>(jobsOf, r.body.run_id);
        const state = await tx.$queryRawUnsafe<{ state: string }[]>(`SELECT state::text FROM run WHERE id = $1::uuid`, r.body.run_id);
        throw Object.assign(rollback, { seen: seen[0]!.n, state: state[0]!.state });
      })
      .catch((err) => err);
    expect(inside).toMatchObject({ seen: 1, state: "failed" });
    expect((await sql().query(jobsOf, [r.body.run_id])).rows[0].n).toBe(0);
    expect(await deliveriesOf(r.body.run_id)).toHaveLength(0);
    // Committed: the run is final exactly when its job exists.
    await http("POST", r.body.links.cancel, { key: c.secret });
    const row = (await sql().query(`SELECT r.state::text AS state, (${jobsOf.replace("$1", "r.id")}) AS jobs FROM run r WHERE r.id = $1`, [r.body.run_id]))
      .rows[0];
    expect(row).toEqual({ state: "cancelled", jobs: 1 });
  });

  it("does not follow a redirect to a private address, and does not retry it", async () => {
    const c = await consumer();
    receiver.redirect("/moved", `https://localhost:${receiver.port}/trap`);
    await createWebhookEndpoint(ref, c.consumerId, { url: `${receiver.origin}/moved`, events: ["run.completed"] });
    const r = await http("POST", runsPath(apis.tiny), { key: c.secret, body: { ...TINY_BODY, wait_seconds: 30 } });
    const row = await waitFor("the delivery to fail", async () => (await deliveriesOf(r.body.run_id)).find((d) => d.state === "failed"), 20_000);
    expect(row.attempts).toBe(1);
    expect(row.lastError).toMatch(/localhost resolves to .*private, loopback or reserved/);
    expect(receiver.to("/moved")).toHaveLength(1);
    expect(receiver.to("/trap")).toHaveLength(0);
  });

  it("refuses an endpoint URL on a private address without the allow-list, naming the field", async () => {
    const { environmentId } = await demoIds();
    const c = await createConsumer({ environmentId });
    const err = await createWebhookEndpoint({ ...ref, environmentId }, c.consumerId, { url: `${receiver.origin}/x`, events: ["run.completed"] }).catch(
      (e) => e,
    );
    expect(err).toMatchObject({ code: "validation_failed", errors: [{ field: "/url", code: "url_not_allowed" }] });
    const https = await createWebhookEndpoint({ ...ref, environmentId }, c.consumerId, { url: "https://10.1.2.3/hook", events: ["run.completed"] }).catch(
      (e) => e,
    );
    expect(https.errors[0].message).toMatch(/10\.1\.2\.3 is a private, loopback or reserved address/);
  });

  it("disables an endpoint whose deliveries failed for a day, with the reason, and sends it nothing more until re-enabled", async () => {
    const c = await consumer();
    receiver.always("/down", 503);
    const hook = await createWebhookEndpoint(ref, c.consumerId, { url: `${receiver.origin}/down`, events: ["run.completed"] });
    const r = await http("POST", runsPath(apis.tiny), { key: c.secret, body: { ...TINY_BODY, wait_seconds: 30 } });
    const first = await waitFor("the first attempt", async () => (await deliveriesOf(r.body.run_id)).find((d) => d.attempts === 1), 20_000);
    // A day of retries, set in SQL: the endpoint has failed since yesterday, and the next attempt is the last.
    await sql().query(`UPDATE webhook_endpoint SET "failingSince" = (now() AT TIME ZONE 'UTC') - interval '25 hours' WHERE id = $1`, [hook.id]);
    await sql().query(`UPDATE webhook_delivery SET attempts = $2 WHERE id = $1`, [first.id, WEBHOOK_ATTEMPTS - 1]);
    await retryNow(first.id);
    const endpoint = await waitFor(
      "the endpoint to be disabled",
      async () => (await sql().query(`SELECT * FROM webhook_endpoint WHERE id = $1 AND NOT enabled`, [hook.id])).rows[0],
      20_000,
    );
    expect(endpoint.consecutiveFailures).toBe(1);
    expect(endpoint.disabledReason).toMatch(/every delivery failed since .* \(last: HTTP 503\)/);
    expect((await deliveriesOf(r.body.run_id))[0]).toMatchObject({ state: "failed", attempts: WEBHOOK_ATTEMPTS, lastStatus: 503 });
    const next = await http("POST", runsPath(apis.tiny), { key: c.secret, body: { ...TINY_BODY, wait_seconds: 30 } });
    expect(next.body.state).toBe("completed");
    expect(await deliveriesOf(next.body.run_id)).toHaveLength(0);
    await enableWebhookEndpoint(ref, hook.id);
    const again = (await sql().query(`SELECT enabled, "disabledReason", "consecutiveFailures" FROM webhook_endpoint WHERE id = $1`, [hook.id])).rows[0];
    expect(again).toEqual({ enabled: true, disabledReason: null, consecutiveFailures: 0 });
  });
});

describe("a run's own subscriber", () => {
  it("refuses a subscriber URI on a private address without the allow-list, naming the field", async () => {
    const tiny = await createFlowApi({ definition: TINY_FLOW });
    const r = await http("POST", `${apiPath(tiny)}/runs`, {
      body: { ...TINY_BODY, subscriber: { successUri: `${receiver.origin}/nope`, failedUri: "https://192.168.1.1/x" } },
    });
    expect(r.status, r.text).toBe(422);
    expect(r.body.errors).toEqual([
      expect.objectContaining({ field: "/subscriber/successUri", code: "url_not_allowed" }),
      expect.objectContaining({ field: "/subscriber/failedUri", code: "url_not_allowed" }),
    ]);
    const odd = await http("POST", `${apiPath(tiny)}/runs`, { body: { ...TINY_BODY, subscriber: { success: "https://example.com/" } } });
    expect(odd.status).toBe(422);
    expect(odd.body.errors[0].field).toBe("/subscriber/success");
  });

  it("HTTP door: calls successUri with the run document and inProgressUri when it starts, unsigned", async () => {
    const c = await consumer();
    const subscriber = { successUri: `${receiver.origin}/http-success`, inProgressUri: `${receiver.origin}/http-progress` };
    const r = await http("POST", runsPath(apis.tiny), { key: c.secret, body: { ...TINY_BODY, subscriber } });
    expect(r.status, r.text).toBe(202);
    const final = await pollRun(r.body.links.self, c.secret);
    const got = await waitFor("the callback", async () => receiver.to("/http-success")[0], 20_000);
    expect(JSON.parse(got.body)).toEqual(final);
    expect(got.headers["webhook-signature"]).toBeUndefined();
    const progress = await waitFor("the progress callback", async () => receiver.to("/http-progress")[0], 20_000);
    expect(JSON.parse(progress.body)).toMatchObject({ run_id: r.body.run_id, state: "running", finished_at: null });
  });

  it("sends inProgressUri the run as it started, also when its delivery is retried after the run ended", async () => {
    const c = await consumer();
    receiver.answer("/late-progress", 500);
    const subscriber = { inProgressUri: `${receiver.origin}/late-progress` };
    const r = await http("POST", runsPath(apis.tiny), { key: c.secret, body: { ...TINY_BODY, subscriber, wait_seconds: 30 } });
    expect(r.body.state, r.text).toBe("completed");
    const first = await waitFor("the first attempt", async () => (await deliveriesOf(r.body.run_id)).find((d) => d.attempts === 1), 20_000);
    await retryNow(first.id);
    const got = await waitFor("the retried callback", async () => receiver.to("/late-progress")[1], 20_000);
    const body = JSON.parse(got.body);
    expect(body).toMatchObject({ run_id: r.body.run_id, state: "running", finished_at: null, progress: { steps_done: 0 } });
    expect(body.results).toBeUndefined();
  });

  it("OGC door: successUri gets the results, as GET /jobs/{id}/results answers them; inProgressUri the statusInfo", async () => {
    const c = await consumer();
    const ogc = `/public/ogc/demo/${env.slug}`;
    const subscriber = {
      successUri: `${receiver.origin}/ogc-success`,
      inProgressUri: `${receiver.origin}/ogc-progress`,
      failedUri: `${receiver.origin}/ogc-failed`,
    };
    const r = await http("POST", `${ogc}/processes/${apis.tiny}/execution`, {
      key: c.secret,
      headers: { prefer: "respond-async" },
      // by reference: both the callback and a later GET /results follow the request's choice
      body: { inputs: { area: ZURICH_AREA }, outputs: { out: { transmissionMode: "reference" } }, subscriber },
    });
    expect(r.status, r.text).toBe(201);
    const got = await waitFor("the success callback", async () => receiver.to("/ogc-success")[0], 30_000);
    const results = await http("GET", `${ogc}/jobs/${r.body.jobID}/results`, { key: c.secret });
    expect(results.status, results.text).toBe(200);
    expect(JSON.parse(got.body)).toEqual(results.body);
    expect(JSON.parse(got.body).out).toMatchObject({ href: expect.stringMatching(/\/results\/out$/), type: "application/geo+json", rel: "enclosure" });
    const progress = await waitFor("the progress callback", async () => receiver.to("/ogc-progress")[0], 20_000);
    expect(JSON.parse(progress.body)).toMatchObject({ jobID: r.body.jobID, type: "process", status: "running" });
    expect(JSON.parse(progress.body).finished).toBeUndefined();
    expect(receiver.to("/ogc-failed")).toHaveLength(0);
  });

  it("OGC door: failedUri gets the statusInfo of a failed job", async () => {
    const c = await consumer();
    const ogc = `/public/ogc/demo/${env.slug}`;
    const r = await http("POST", `${ogc}/processes/${apis.failing}/execution`, {
      key: c.secret,
      headers: { prefer: "respond-async" },
      body: { inputs: { cities: FEW_CITIES }, subscriber: { successUri: `${receiver.origin}/ogc2-success`, failedUri: `${receiver.origin}/ogc2-failed` } },
    });
    expect(r.status, r.text).toBe(201);
    const got = await waitFor("the failure callback", async () => receiver.to("/ogc2-failed")[0], 30_000);
    const status = await http("GET", `${ogc}/jobs/${r.body.jobID}`, { key: c.secret });
    expect(JSON.parse(got.body)).toEqual(status.body);
    expect(status.body.status).toBe("failed");
    expect(receiver.to("/ogc2-success")).toHaveLength(0);
  });
});
