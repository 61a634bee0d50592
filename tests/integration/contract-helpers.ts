/**
 * Helpers for the contract tests (tests/integration/contract-*.test.ts): rows created
 * directly in the test database (consumers and keys in any state, environments, extra flow
 * APIs that fail, run long, or are not published, tight plans), and problem-body checks.
 * Everything created here gets a random suffix, so tests never collide.
 */
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { generateApiKey, hashApiKey, keyPrefix } from "@/lib/keys/api-key";
import { sql, type THttpResult } from "./helpers";
import { EXAMPLE_AREA } from "@/lib/openapi/docs-model";

export const suffix = () => randomBytes(4).toString("hex");

/** Asserts an RFC 9457 problem answer with `status` and `code`; returns the body. */
export function expectProblem(r: THttpResult, status: number, code?: string): any {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get("content-type")).toBe("application/problem+json");
  expect(r.body).toMatchObject({
    status,
    type: expect.stringMatching(/^https:\/\/flow-api\.dev\/problems\//),
    title: expect.any(String),
    detail: expect.any(String),
  });
  if (code) expect(r.body.code).toBe(code);
  expect(r.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/); // no stack, no internals
  return r.body;
}

async function one<T = any>(text: string, values: unknown[] = []): Promise<T> {
  const { rows } = await sql().query(text, values);
  return rows[0] as T;
}

export async function demoIds(): Promise<{ organizationId: string; workspaceId: string; environmentId: string }> {
  return one(`
    SELECT o.id AS "organizationId", w.id AS "workspaceId", e.id AS "environmentId"
    FROM organization o JOIN workspace w ON w."organizationId" = o.id AND w.slug = 'demo'
    JOIN environment e ON e."organizationId" = o.id AND e.slug = 'production' WHERE o.slug = 'demo'`);
}

/** A new environment of the demo organization. */
export async function createEnvironment(slug = `env-${suffix()}`): Promise<{ id: string; slug: string }> {
  const { organizationId } = await demoIds();
  const row = await one(`INSERT INTO environment (id, "organizationId", slug, name) VALUES (gen_random_uuid(), $1, $2, $2) RETURNING id`, [
    organizationId,
    slug,
  ]);
  return { id: row.id, slug };
}

/**
 * A new consumer with one key. `grants`: API slugs it may call. `key`: state of the key.
 * Returns the secret and the ids.
 */
export async function createConsumer(opts: { grants?: string[]; environmentId?: string; expiresAt?: Date; revokedAt?: Date } = {}) {
  const environmentId = opts.environmentId ?? (await demoIds()).environmentId;
  const slug = `consumer-${suffix()}`;
  const consumer = await one(`INSERT INTO consumer (id, "environmentId", slug, name) VALUES (gen_random_uuid(), $1, $2, $2) RETURNING id`, [
    environmentId,
    slug,
  ]);
  const secret = generateApiKey();
  const key = await one(
    `INSERT INTO api_key (id, "consumerId", name, prefix, hash, "expiresAt", "revokedAt") VALUES (gen_random_uuid(), $1, 'test', $2, $3, $4, $5) RETURNING id`,
    [consumer.id, keyPrefix(secret), hashApiKey(secret), opts.expiresAt ?? null, opts.revokedAt ?? null],
  );
  for (const api of opts.grants ?? []) {
    await sql().query(`INSERT INTO access_grant ("consumerId", "flowApiId") SELECT $1, id FROM flow_api WHERE slug = $2`, [consumer.id, api]);
  }
  return { secret, consumerId: consumer.id as string, keyId: key.id as string };
}

/**
 * Gives `workspaceId` a layer `layerId` of its own, readable in the demo production: a copy of
 * the demo workspace's layer row (sharing its file). A run's `layer_id` resolves in its API's
 * workspace, so an API of another workspace cannot read the demo workspace's layers.
 */
export async function copyDemoLayer(workspaceId: string, layerId: string): Promise<void> {
  const ids = await demoIds();
  await sql().query(
    `INSERT INTO layer (id, "workspaceId", name, kind, description, "itemCount", "dataVersion", bbox, "geometryTypes", "fileKey", "fileSizeBytes", "fileSha256", columns, "updatedAt")
     SELECT id, $1, name, kind, description, "itemCount", "dataVersion", bbox, "geometryTypes", "fileKey", "fileSizeBytes", "fileSha256", columns, now()
     FROM layer WHERE "workspaceId" = $2 AND id = $3 ON CONFLICT DO NOTHING`,
    [workspaceId, ids.workspaceId, layerId],
  );
  await sql().query(`INSERT INTO environment_layer ("environmentId", "workspaceId", "layerId") VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
    ids.environmentId,
    workspaceId,
    layerId,
  ]);
}

/** A plan with a low rate limit and a workspace on it (in the demo organization). */
export async function createWorkspace(rateLimitPerMinute: number): Promise<{ workspaceId: string; planId: string }> {
  const { organizationId } = await demoIds();
  const planId = `test-${suffix()}`;
  await sql().query(`INSERT INTO plan (id, name, "maxFlowApis", "aiAccess", "rateLimitPerMinute") VALUES ($1, $1, 10, false, $2)`, [
    planId,
    rateLimitPerMinute,
  ]);
  const ws = await one(`INSERT INTO workspace (id, "organizationId", slug, name, "planId") VALUES (gen_random_uuid(), $1, $2, $2, $3) RETURNING id`, [
    organizationId,
    `ws-${suffix()}`,
    planId,
  ]);
  return { workspaceId: ws.id, planId };
}

/**
 * A Flow API of `definition` in the demo organization. Published into `production` (with
 * grants for demo-consumer and other-consumer) unless `publish` is false (a draft).
 */
export async function createFlowApi(opts: {
  definition: unknown;
  publish?: boolean;
  workspaceId?: string;
  slug?: string;
  grantDemo?: boolean;
}): Promise<string> {
  const ids = await demoIds();
  const workspaceId = opts.workspaceId ?? ids.workspaceId;
  const slug = opts.slug ?? `test-api-${suffix()}`;
  const flow = await one(`INSERT INTO flow (id, "workspaceId", name) VALUES (gen_random_uuid(), $1, $2) RETURNING id`, [workspaceId, slug]);
  const version = await one(`INSERT INTO flow_version (id, "flowId", version, definition) VALUES (gen_random_uuid(), $1, 1, $2) RETURNING id`, [
    flow.id,
    JSON.stringify(opts.definition),
  ]);
  const publish = opts.publish !== false;
  const api = await one(
    `INSERT INTO flow_api (id, "organizationId", "workspaceId", "flowId", "selectedFlowVersionId", slug, name, description, status)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $5, 'A test API', $6) RETURNING id`,
    [ids.organizationId, workspaceId, flow.id, version.id, slug, publish ? "published" : "draft"],
  );
  if (publish) {
    const release = await one(
      `INSERT INTO release (id, "flowApiId", "environmentId", "flowVersionId", number) VALUES (gen_random_uuid(), $1, $2, $3, 1) RETURNING id`,
      [api.id, ids.environmentId, version.id],
    );
    await sql().query(`INSERT INTO environment_api ("environmentId", "flowApiId", "releaseId", "updatedAt") VALUES ($1, $2, $3, now())`, [
      ids.environmentId,
      api.id,
      release.id,
    ]);
  }
  if (opts.grantDemo !== false) {
    await sql().query(
      `INSERT INTO access_grant ("consumerId", "flowApiId") SELECT c.id, $1 FROM consumer c WHERE c."environmentId" = $2 AND c.slug IN ('demo-consumer', 'other-consumer')`,
      [api.id, ids.environmentId],
    );
  }
  return slug;
}

/** A flow that fails at run time: step `bad_union` joins a layer and a table. */
export const FAILING_FLOW = {
  description: "Always fails in step bad_union",
  inputs: [{ name: "cities", kind: "layer" }],
  parameters: [],
  steps: [
    { id: "as_table", type: "to_table", source: "cities" },
    { id: "bad_union", type: "union", sources: ["cities", "as_table"] },
  ],
  results: [{ key: "out", kind: "layer", from: "bad_union" }],
};

/** A flow that runs for minutes (every city against every city within 2,000 km); cancel it. */
export const SLOW_FLOW = {
  description: "Runs for a long time",
  inputs: [{ name: "cities", kind: "layer" }],
  parameters: [],
  steps: [{ id: "around", type: "within_distance", source: "cities", target: "cities", max_km: 2000, aggregations: [{ op: "count", as: "n" }] }],
  results: [{ key: "out", kind: "layer", from: "around" }],
};

/** A flow that finishes at once: the caller's area as a layer. */
export const TINY_FLOW = {
  description: "Echoes an area",
  inputs: [{ name: "area", kind: "area" }],
  parameters: [],
  steps: [],
  results: [{ key: "out", kind: "layer", from: "area" }],
};

export const CITIES_BODY = { inputs: { cities: { layer_id: "world-cities" } } };

/** A small area over Zurich (a few dozen cities): quick runs with real results. */
export const ZURICH_AREA = EXAMPLE_AREA;

export async function layerCount(): Promise<number> {
  return (await one(`SELECT count(*)::int AS n FROM layer`)).n;
}

export async function workspaceUsage(workspaceId: string): Promise<{ etlRuns: number; processingMs: number; apiRequests: number }> {
  const r = await one(
    `SELECT coalesce(sum("etlRuns"),0)::int AS etl, coalesce(sum("processingMs"),0)::bigint AS ms, coalesce(sum("apiRequests"),0)::int AS req FROM usage_counter WHERE "workspaceId" = $1`,
    [workspaceId],
  );
  return { etlRuns: r.etl, processingMs: Number(r.ms), apiRequests: r.req };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the wall clock is not within the last `margin` seconds of a minute (rate-limit windows). */
export async function awayFromMinuteEnd(marginSeconds = 12): Promise<void> {
  const s = new Date().getUTCSeconds();
  if (s >= 60 - marginSeconds) await sleep((61 - s) * 1000);
}
