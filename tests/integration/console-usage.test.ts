/**
 * The console's numbers (issue 11): the usage report equals the billing counters the public
 * API's tests check (usage_counter, summed independently here in SQL), its per-consumer and
 * per-API shares follow the calls made, refused calls are shown by status and never billed;
 * the runs list filters by API, consumer and state; and the AI switch (lib/serving/set-ai-access.ts)
 * changes the tools an MCP client sees on its next request, as the console's "Connect an AI
 * client" view lists them (`aiApisOfConsumer`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiPath, demoUsage, http, resetRuns, sql, waitFor } from "./helpers";
import { demoIds, ZURICH_AREA } from "./contract-helpers";
import { withClient } from "./mcp-helpers";
import { createConsumer } from "@/lib/consumers/create-consumer";
import { createApiKey } from "@/lib/keys/create-api-key";
import { setGrant } from "@/lib/grants/set-grant";
import { usageReport, type TUsageReport } from "@/lib/metering/usage-report";
import { listEnvironmentRuns } from "@/lib/runs/list-environment-runs";
import { getEnvironmentRun } from "@/lib/runs/get-environment-run";
import { setAiAccess } from "@/lib/serving/set-ai-access";
import { aiApisOfConsumer, aiApisOfConsumers } from "@/lib/serving/resolve-ai-caller";
import { listServedApis } from "@/lib/serving/list-served-apis";
import type { TEnvironmentRef } from "@/lib/runs/scope";

const CITIES = apiPath("cities-in-area");
const BODY = { inputs: { cities: { layer_id: "world-cities" }, area: { area: ZURICH_AREA } }, parameters: { min_population: 10000 } };
let scope: TEnvironmentRef;
let place: TEnvironmentRef & { organization: string; environment: string };
let citiesApiId: string;

beforeAll(async () => {
  const ids = await demoIds();
  scope = { organizationId: ids.organizationId, environmentId: ids.environmentId };
  place = { ...scope, organization: "demo", environment: "production" };
  citiesApiId = (await sql().query(`SELECT id FROM flow_api WHERE slug = 'cities-in-area'`)).rows[0].id;
});
beforeEach(resetRuns);
afterAll(async () => {
  const { db } = await import("@/lib/db");
  await db.$disconnect();
});

async function newCaller(name: string) {
  const consumer = await createConsumer(scope, { name });
  const key = await createApiKey(scope, { consumerId: consumer.id });
  await setGrant(scope, { consumerId: consumer.id, flowApiId: citiesApiId, granted: true });
  return { consumer, key };
}

const refusedOf = (r: TUsageReport, status: number) => r.refused.find((x) => x.status === status)?.count ?? 0;

describe("usage report", () => {
  it("equals the billing counters and moves with each call, per API and per consumer", async () => {
    const { consumer, key } = await newCaller("Usage caller");
    const before = await usageReport(place);
    const run = await http("POST", `${CITIES}/runs`, { key: key.secret, body: { ...BODY, wait_seconds: 30 } });
    expect(run.status).toBe(200);
    expect((await http("GET", run.body.links.self, { key: key.secret })).status).toBe(200);
    expect((await http("GET", `${CITIES}/runs`, { key: key.secret })).status).toBe(200);

    // Workspace totals: exactly the usage_counter sums the contract tests check.
    const billed = await demoUsage();
    const report = await usageReport(place);
    const demo = report.workspaces.find((w) => w.slug === "demo")!;
    expect(demo.totals).toEqual(billed);
    expect(billed).toMatchObject({ etlRuns: 1, apiRequests: 3 });
    expect(demo.days.at(-1)).toMatchObject({ day: new Date().toISOString().slice(0, 10), ...billed });
    expect(demo.days).toHaveLength(30);
    // Plan limits and use, compared with the plan row.
    const plan = (await sql().query(`SELECT p.* FROM plan p JOIN workspace w ON w."planId" = p.id WHERE w.slug = 'demo'`)).rows[0];
    const apis = (await sql().query(`SELECT count(*)::int AS n FROM flow_api f JOIN workspace w ON w.id = f."workspaceId" WHERE w.slug = 'demo'`)).rows[0].n;
    expect(demo.plan).toMatchObject({ maxFlowApis: plan.maxFlowApis, aiAccess: plan.aiAccess });
    expect(demo.flowApis).toBe(apis);

    // This consumer's share: its run (with the run's own processing time) and its 3 requests.
    const { rows } = await sql().query(`SELECT "processingMs" FROM run WHERE "consumerId" = $1`, [consumer.id]);
    await waitFor("per-consumer requests", async () => (await usageReport(place)).perConsumer.find((c) => c.id === consumer.id)?.apiRequests === 3, 5000);
    const mine = (await usageReport(place)).perConsumer.find((c) => c.id === consumer.id)!;
    expect(mine).toMatchObject({ etlRuns: 1, processingMs: rows[0].processingMs, apiRequests: 3 });
    const cities = (await usageReport(place)).perApi.find((a) => a.id === citiesApiId)!;
    const citiesBefore = before.perApi.find((a) => a.id === citiesApiId);
    expect(cities.apiRequests - (citiesBefore?.apiRequests ?? 0)).toBe(3);
  });

  it("shows refused calls by reason (401, 403, 422, 429) and bills none of them", async () => {
    const { consumer, key } = await newCaller("Refused caller");
    const before = await usageReport(place);
    const billedBefore = await demoUsage();
    expect((await http("GET", `${CITIES}/runs`, { key: null })).status).toBe(401);
    expect((await http("GET", `${CITIES}/runs`, { key: "fapi_" + "Q".repeat(32) })).status).toBe(401);
    expect((await http("POST", `${CITIES}/runs`, { key: key.secret, body: { inputs: {} } })).status).toBe(422);
    await setGrant(scope, { consumerId: consumer.id, flowApiId: citiesApiId, granted: false });
    expect((await http("GET", `${CITIES}/runs`, { key: key.secret })).status).toBe(403); // the very next call
    // 429: the demo plan allows this key one call a minute for a moment.
    const planId = (await sql().query(`SELECT "planId" FROM workspace WHERE slug = 'demo'`)).rows[0].planId;
    const limit = (await sql().query(`SELECT "rateLimitPerMinute" FROM plan WHERE id = $1`, [planId])).rows[0].rateLimitPerMinute;
    const statuses: number[] = [];
    await sql().query(`UPDATE plan SET "rateLimitPerMinute" = 1 WHERE id = $1`, [planId]);
    try {
      await setGrant(scope, { consumerId: consumer.id, flowApiId: citiesApiId, granted: true });
      for (let i = 0; i < 3; i++) statuses.push((await http("GET", `${CITIES}/runs`, { key: key.secret })).status);
      expect(statuses).toContain(429);
    } finally {
      await sql().query(`UPDATE plan SET "rateLimitPerMinute" = $2 WHERE id = $1`, [planId, limit]);
    }
    const after = await waitFor(
      "refused calls recorded",
      async () => {
        const r = await usageReport(place);
        return refusedOf(r, 429) > refusedOf(before, 429) && refusedOf(r, 401) - refusedOf(before, 401) === 2 ? r : null;
      },
      5000,
    );
    expect(refusedOf(after, 401) - refusedOf(before, 401)).toBe(2);
    expect(refusedOf(after, 403) - refusedOf(before, 403)).toBe(1);
    expect(refusedOf(after, 422) - refusedOf(before, 422)).toBe(1);
    // Billed: only the 2xx answers among all these calls (at most the first of the last three).
    expect((await demoUsage()).apiRequests - billedBefore.apiRequests).toBe(statuses.filter((s) => s === 200).length);
    expect((await demoUsage()).etlRuns).toBe(billedBefore.etlRuns);
    expect(after.refusedTotal).toBe(after.refused.reduce((s, r) => s + r.count, 0));
  });
});

describe("runs", () => {
  it("lists the environment's runs with filters, and a run's detail without caller data once final", async () => {
    const a = await newCaller("Runs caller A");
    const b = await newCaller("Runs caller B");
    const done = await http("POST", `${CITIES}/runs`, { key: a.key.secret, body: { ...BODY, wait_seconds: 30 } });
    expect(done.status).toBe(200);
    const bad = await http("POST", `${CITIES}/runs`, { key: b.key.secret, body: { ...BODY, wait_seconds: 30 } });
    expect(bad.status).toBe(200);
    const all = await listEnvironmentRuns(scope);
    expect(all.map((r) => r.id)).toEqual(expect.arrayContaining([done.body.run_id, bad.body.run_id]));
    const ofA = await listEnvironmentRuns(scope, { consumerId: a.consumer.id });
    expect(ofA.map((r) => r.id)).toEqual([done.body.run_id]);
    expect(ofA[0]).toMatchObject({ state: "completed", api: { slug: "cities-in-area" }, consumer: { name: "Runs caller A" } });
    expect(ofA[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(await listEnvironmentRuns(scope, { consumerId: a.consumer.id, state: "failed" })).toEqual([]);
    expect(await listEnvironmentRuns(scope, { apiId: citiesApiId, from: new Date(Date.now() + 60_000) })).toEqual([]);
    const detail = await getEnvironmentRun(scope, done.body.run_id);
    expect(detail.results.map((r) => r.key).sort()).toEqual(done.body.results.map((r: { key: string }) => r.key).sort());
    expect(JSON.stringify(detail.request)).not.toContain("8.4"); // the caller's area is gone once final
    await expect(getEnvironmentRun(scope, "not-a-uuid")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("AI access", () => {
  it("lists the tools of every consumer of the environment at once as it lists each one's alone (the consent page)", async () => {
    const granted = await newCaller("AI caller, one of many");
    const bare = await createConsumer(scope, { name: "AI caller without grants" });
    const { rows } = await sql().query(`SELECT id FROM consumer WHERE "environmentId" = $1`, [scope.environmentId]);
    const ids = rows.map((r) => r.id as string);
    expect(ids).toEqual(expect.arrayContaining([granted.consumer.id, bare.id]));
    const many = await aiApisOfConsumers(scope, ids, place);
    expect([...many.apis.keys()]).toEqual(ids);
    for (const id of ids) {
      const alone = await aiApisOfConsumer({ id, ...scope }, place);
      expect(many.apis.get(id)).toEqual(alone.apis);
      expect(many.planAllows).toBe(alone.planAllows);
    }
    expect(many.apis.get(granted.consumer.id)!.map((a) => a.path.api)).toContain("cities-in-area");
    expect(many.apis.get(bare.id)).toEqual([]);
  });

  it("the switch changes the tools an AI client sees on its next request, as the console lists them", async () => {
    const { consumer, key } = await newCaller("AI caller");
    const listTools = () => withClient({ key: key.secret }, async (c) => (await c.listTools()).tools.map((t) => t.name));
    const consoleTools = async () =>
      (await aiApisOfConsumer({ id: consumer.id, environmentId: scope.environmentId, organizationId: scope.organizationId }, place)).apis.map((a) =>
        a.path.api.replaceAll("-", "_"),
      );
    try {
      await setAiAccess({ environmentId: scope.environmentId, flowApiId: citiesApiId, enabled: false });
      expect(await listTools()).not.toContain("cities_in_area");
      expect(await consoleTools()).not.toContain("cities_in_area");
      await setAiAccess({ environmentId: scope.environmentId, flowApiId: citiesApiId, enabled: true });
      const on = await listTools();
      expect(on).toContain("cities_in_area");
      // run_* and list_layers are the server's own tools, beside the APIs the console lists.
      expect(on.filter((t) => !t.startsWith("run_") && t !== "list_layers")).toEqual(await consoleTools());
      expect((await listServedApis(scope)).find((a) => a.flowApiId === citiesApiId)).toMatchObject({ aiAccess: true, aiBlockedReason: null });
    } finally {
      await setAiAccess({ environmentId: scope.environmentId, flowApiId: citiesApiId, enabled: true }); // as seeded
    }
  });

  it("on a plan without AI access the switch cannot be turned on and says why", async () => {
    await sql().query(`UPDATE plan SET "aiAccess" = false WHERE id = (SELECT "planId" FROM workspace WHERE slug = 'demo')`);
    try {
      const served = (await listServedApis(scope)).find((a) => a.flowApiId === citiesApiId)!;
      expect(served.aiBlockedReason).toMatch(/does not include AI access/);
      await expect(setAiAccess({ environmentId: scope.environmentId, flowApiId: citiesApiId, enabled: true })).rejects.toMatchObject({ code: "forbidden" });
    } finally {
      await sql().query(`UPDATE plan SET "aiAccess" = true WHERE id = (SELECT "planId" FROM workspace WHERE slug = 'demo')`);
    }
  });
});
