/**
 * Layer ids belong to their workspace: two workspaces of two organizations each have a layer of
 * the same id; a caller of one organization's API that names a layer only the other
 * organization has gets the answer of an id nobody uses (over HTTP and over MCP), and a run
 * reads the layer of its API's workspace; an environment's readable layers (the console) are
 * those of its organization's workspaces, stored with the workspace. A run over an uploaded
 * layer answers its features' GeoJSON `id` members, as the upload gave them.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { deleteLayer } from "@/lib/layers/delete-layer";
import { CITIES_IN_AREA } from "@/lib/demo/flows";
import { listEnvironmentLayers, setLayerReadable } from "@/lib/serving/environment-layers";
import { listLayers } from "@/lib/layers/list-layers";
import { BASE_URL, download, http, pollRun, sql } from "./helpers";
import { createConsumer, demoIds, expectProblem, suffix } from "./contract-helpers";
import { designWorkspace, expectAppError, importLayer } from "./design-helpers";
import { textOf, withClient } from "./mcp-helpers";

const enc = (s: string) => new TextEncoder().encode(s);
const one = async (q: string, params: unknown[] = []) => (await sql().query(q, params)).rows[0];

/** Points as CSV, all inside `AREA`. */
const pointsCsv = (n: number) =>
  "lon,lat,geonameid,name,country,population\n" + Array.from({ length: n }, (_, i) => `8.5${i},47.4,${i + 1},p${i},CH,${1000 + i}`).join("\n") + "\n";
const AREA = {
  type: "Polygon",
  coordinates: [
    [
      [8, 47],
      [9.5, 47],
      [9.5, 48],
      [8, 48],
      [8, 47],
    ],
  ],
};

/** Organization B: a workspace on a plan with AI access, environment `production` serving `cities` (the demo's cities-in-area flow), a consumer with a key granted it. */
async function createOrganizationB() {
  const org = `org-b-${suffix()}`;
  const planId = `plan-${suffix()}`;
  await sql().query(`INSERT INTO plan (id, name, "maxFlowApis", "aiAccess", "rateLimitPerMinute") VALUES ($1, $1, 10, true, 600)`, [planId]);
  const o = (await one(`INSERT INTO organization (id, slug, name) VALUES (gen_random_uuid(), $1, $1) RETURNING id`, [org])).id as string;
  const w = (
    await one(`INSERT INTO workspace (id, "organizationId", slug, name, "planId") VALUES (gen_random_uuid(), $1, 'main', 'Main', $2) RETURNING id`, [o, planId])
  ).id as string;
  const e = (
    await one(`INSERT INTO environment (id, "organizationId", slug, name) VALUES (gen_random_uuid(), $1, 'production', 'Production') RETURNING id`, [o])
  ).id as string;
  const f = (await one(`INSERT INTO flow (id, "workspaceId", name) VALUES (gen_random_uuid(), $1, 'Cities') RETURNING id`, [w])).id;
  const v = (await one(`INSERT INTO flow_version (id, "flowId", version, definition) VALUES (gen_random_uuid(), $1, 1, $2) RETURNING id`, [f, CITIES_IN_AREA]))
    .id;
  const a = (
    await one(
      `INSERT INTO flow_api (id, "organizationId", "workspaceId", "flowId", "selectedFlowVersionId", slug, name, status)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, 'cities', 'Cities', 'published') RETURNING id`,
      [o, w, f, v],
    )
  ).id;
  const r = (
    await one(`INSERT INTO release (id, "flowApiId", "environmentId", "flowVersionId", number) VALUES (gen_random_uuid(), $1, $2, $3, 1) RETURNING id`, [
      a,
      e,
      v,
    ])
  ).id;
  await sql().query(`INSERT INTO environment_api ("environmentId", "flowApiId", "releaseId", "aiAccess", "updatedAt") VALUES ($1, $2, $3, true, now())`, [
    e,
    a,
    r,
  ]);
  const key = await createConsumer({ environmentId: e });
  await sql().query(`INSERT INTO access_grant ("consumerId", "flowApiId") VALUES ($1, $2)`, [key.consumerId, a]);
  return { org, organizationId: o, workspaceId: w, environmentId: e, key: key.secret };
}

let A: Awaited<ReturnType<typeof designWorkspace>> & { environmentId: string };
let B: Awaited<ReturnType<typeof createOrganizationB>>;
const STORES = `stores-${suffix()}`;
/** A layer only organization A has, readable by A's environment. */
const SECRET = `secret-${suffix()}`;
const NOBODY = `nobody-${suffix()}`;

beforeAll(async () => {
  A = { ...(await designWorkspace()), environmentId: (await demoIds()).environmentId };
  B = await createOrganizationB();
  await importLayer(A, { id: STORES, name: "Stores of A", format: "csv", bytes: enc(pointsCsv(3)) });
  await importLayer(A, { id: SECRET, name: "Secret of A", format: "csv", bytes: enc(pointsCsv(2)) });
  await importLayer(B, { id: STORES, name: "Stores of B", format: "csv", bytes: enc(pointsCsv(5)) });
  await setLayerReadable(A, { workspaceId: A.workspaceId, layerId: SECRET, readable: true });
  await setLayerReadable(B, { workspaceId: B.workspaceId, layerId: STORES, readable: true });
}, 120_000);

afterAll(async () => {
  await sql().query(`DELETE FROM environment_layer WHERE "workspaceId" = $1`, [A.workspaceId]);
});

describe("layer ids per workspace", () => {
  it("two workspaces of two organizations each have a layer of the same id, each its own", async () => {
    expect((await listLayers(A)).find((l) => l.id === STORES)).toMatchObject({ name: "Stores of A", itemCount: 3 });
    expect((await listLayers(B)).find((l) => l.id === STORES)).toMatchObject({ name: "Stores of B", itemCount: 5 });
    const files = (await sql().query(`SELECT "fileKey" FROM layer WHERE id = $1`, [STORES])).rows.map((r) => r.fileKey as string);
    expect(new Set(files).size).toBe(2);
  });

  it("a run of B's API reads B's layer of that id", async () => {
    const body = { inputs: { cities: { layer_id: STORES }, area: { area: AREA } }, parameters: { min_population: 0 } };
    const r = await http("POST", `/public/api/${B.org}/production/cities/runs`, { key: B.key, body: { ...body, wait_seconds: 30 } });
    expect([200, 201, 202]).toContain(r.status);
    const run = r.body.state === "completed" ? r.body : await pollRun(`/public/api/${B.org}/production/cities/runs/${r.body.run_id}`, B.key);
    expect(run.state).toBe("completed");
    expect(run.results.find((x: { key: string }) => x.key === "cities")).toMatchObject({ feature_count: 5 });
  });
});

describe("a layer's Feature ids", () => {
  it("a run over a GeoJSON layer answers each feature's id (string or number) as uploaded", async () => {
    const ids = `ids-${suffix()}`;
    const features = Array.from({ length: 6 }, (_, i) => ({
      type: "Feature",
      ...(i < 5 ? { id: i % 2 === 0 ? `town-${i}` : 100 + i } : {}),
      properties: { geonameid: i + 1, name: `t${i}`, country: "CH", population: 1000 + i },
      geometry: { type: "Point", coordinates: [8.5 + i / 10, 47.4] },
    }));
    await importLayer(B, { id: ids, name: "Towns with ids", format: "geojson", bytes: enc(JSON.stringify({ type: "FeatureCollection", features })) });
    await setLayerReadable(B, { workspaceId: B.workspaceId, layerId: ids, readable: true });
    // B keeps only its STORES for the tests below
    onTestFinished(async () => {
      await setLayerReadable(B, { workspaceId: B.workspaceId, layerId: ids, readable: false });
      await deleteLayer(B, ids);
    });
    const body = { inputs: { cities: { layer_id: ids }, area: { area: AREA } }, parameters: { min_population: 0 }, formats: { cities: "geojson" } };
    const r = await http("POST", `/public/api/${B.org}/production/cities/runs`, { key: B.key, body: { ...body, wait_seconds: 30 } });
    const run = r.body.state === "completed" ? r.body : await pollRun(`/public/api/${B.org}/production/cities/runs/${r.body.run_id}`, B.key);
    expect(run.state).toBe("completed");
    const d = await download(run.results.find((x: { key: string }) => x.key === "cities").href, B.key);
    expect(d.status).toBe(200);
    const got = JSON.parse(d.bytes.toString("utf8")).features as { id?: unknown; properties: { name: string } }[];
    expect(got.map((f) => [f.properties.name, f.id])).toEqual(features.map((f) => [f.properties.name, f.id]));
    expect(Object.hasOwn(got[5]!, "id")).toBe(false);
  });
});

describe("no existence leak", () => {
  const bodyWith = (layerId: string) => ({ inputs: { cities: { layer_id: layerId }, area: { area: AREA } } });
  const same = (text: string, id: string) => text.replaceAll(id, "<id>");

  it("over HTTP: a layer only organization A has is answered as an id nobody uses", async () => {
    const url = `/public/api/${B.org}/production/cities/runs`;
    const secret = expectProblem(await http("POST", url, { key: B.key, body: bodyWith(SECRET) }), 422, "validation_failed");
    const nobody = expectProblem(await http("POST", url, { key: B.key, body: bodyWith(NOBODY) }), 422, "validation_failed");
    expect(JSON.parse(same(JSON.stringify(secret.errors), SECRET))).toEqual(JSON.parse(same(JSON.stringify(nobody.errors), NOBODY)));
    expect(secret.errors[0]).toMatchObject({ field: "/inputs/cities/layer_id", code: "unknown_layer" });
    expect(secret.errors[0].message).toContain(STORES); // B's readable layer is suggested, A's are never named
  });

  it("over MCP: the same, and list_layers names only B's layers", async () => {
    await withClient({ key: B.key, url: `${BASE_URL}/public/mcp/${B.org}/production` }, async (c) => {
      const secret = await c.callTool({ name: "cities", arguments: { cities: { layer_id: SECRET }, area: { area: AREA } } });
      const nobody = await c.callTool({ name: "cities", arguments: { cities: { layer_id: NOBODY }, area: { area: AREA } } });
      expect(secret.isError).toBe(true);
      expect(same(textOf(secret), SECRET)).toBe(same(textOf(nobody), NOBODY));
      expect(textOf(secret)).toContain("unknown_layer");
      const listed = await c.callTool({ name: "list_layers", arguments: {} });
      expect(((listed.structuredContent as any).layers as any[]).map((l) => [l.id, l.item_count])).toEqual([[STORES, 5]]);
    });
  });
});

describe("readable layers of an environment (console)", () => {
  it("offers only layers of the organization's workspaces, and stores the workspace with the id", async () => {
    const offered = await listEnvironmentLayers(B);
    expect(offered.map((l) => [l.workspaceId, l.id, l.readable])).toEqual([[B.workspaceId, STORES, true]]);
    await expectAppError(setLayerReadable(B, { workspaceId: A.workspaceId, layerId: SECRET, readable: true }), "not_found");
    await expectAppError(setLayerReadable(B, { workspaceId: B.workspaceId, layerId: SECRET, readable: true }), "not_found");
    const stored = (await sql().query(`SELECT "workspaceId", "layerId" FROM environment_layer WHERE "environmentId" = $1`, [B.environmentId])).rows;
    expect(stored).toEqual([{ workspaceId: B.workspaceId, layerId: STORES }]);
    const ofA = (await listEnvironmentLayers(A)).filter((l) => l.id === STORES);
    expect(ofA.map((l) => l.workspaceId)).toEqual([A.workspaceId]);
  });
});
