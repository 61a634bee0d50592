/**
 * MCP over real HTTP with the official SDK client (2025-era `initialize` clients and the
 * 2026-07-28 revision): the tools a key sees (switch, grants, plan), a quick call whose
 * results equal the HTTP API's on the same input (and an independent count), a long call
 * answered with a run_id and completed with run_status / run_result / run_cancel, progress,
 * a dropped request that does not cancel its run, visibility across consumers, bad
 * arguments, metering, and the 401 / 403 / Host / Origin refusals.
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiPath, BASE_URL, citiesInPolygon, DEMO_KEY, demoUsage, download, http, OTHER_KEY, parseCsv, resetRuns, runCount, sql, waitFor } from "./helpers";
import { awayFromMinuteEnd, createConsumer, createEnvironment, createFlowApi, createWorkspace, SLOW_FLOW, TINY_FLOW, ZURICH_AREA } from "./contract-helpers";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { MCP_PATH, MCP_URL, mcpClient, setAiSwitch, textOf, withClient, type TEra } from "./mcp-helpers";
import { AppError } from "@/lib/errors";
import { setAiAccess } from "@/lib/serving/set-ai-access";
import { ZFlowVersion } from "@/lib/flows/definition";
import { runRequestJsonSchema } from "@/lib/flows/run-request";

const DEMO_TOOLS = ["cities_in_area", "country_stats", "nearby_cities"];
// The tools every key sees after its Flow API tools (list_layers: issue 25, item 3).
const RUN_TOOLS = ["run_status", "run_result", "run_cancel", "list_layers"];
const CITIES_ARGS = { cities: { layer_id: "world-cities" }, area: { area: ZURICH_AREA }, min_population: 10000 };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
};

let slowSlug: string;

beforeAll(async () => {
  slowSlug = await createFlowApi({ definition: SLOW_FLOW });
  await setAiSwitch(slowSlug, true);
});

afterAll(async () => {
  // Nothing long may outlive the file: cancel what is still going (as its caller would).
  const { rows } = await sql().query(
    `SELECT r.id, f.slug FROM run r JOIN flow_api f ON f.id = r."flowApiId" JOIN consumer c ON c.id = r."consumerId"
     WHERE r.state IN ('queued', 'running') AND c.slug = 'demo-consumer'`,
  );
  for (const r of rows) await http("POST", `${apiPath(r.slug)}/runs/${r.id}/cancel`);
  const { db } = await import("@/lib/db");
  await db.$disconnect();
});

beforeEach(resetRuns);

/**
 * The Flow API tools a key should see, computed in SQL and plain JS from the rules (published
 * in its environment, switch on, plan with AI access, granted, no input/parameter name clash),
 * ordered by slug.
 */
async function expectedTools(key: string): Promise<string[]> {
  const { rows } = await sql().query(
    `SELECT f.slug, v.definition FROM api_key k
       JOIN consumer c ON c.id = k."consumerId"
       JOIN environment_api ea ON ea."environmentId" = c."environmentId" AND ea."aiAccess"
       JOIN flow_api f ON f.id = ea."flowApiId"
       JOIN workspace w ON w.id = f."workspaceId" JOIN plan p ON p.id = w."planId" AND p."aiAccess"
       JOIN access_grant g ON g."consumerId" = c.id AND g."flowApiId" = f.id
       JOIN release r ON r.id = ea."releaseId" JOIN flow_version v ON v.id = r."flowVersionId"
     WHERE k.hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')
     ORDER BY f.slug COLLATE "C"`,
    [key],
  );
  return rows
    .filter((r) => {
      const names = [...r.definition.inputs.map((i: { name: string }) => i.name), ...(r.definition.parameters ?? []).map((p: { name: string }) => p.name)];
      return new Set(names).size === names.length && !names.includes("wait_seconds") && !names.includes("formats");
    })
    .map((r) => r.slug.replace(/-/g, "_"));
}

async function toolNames(opts: Parameters<typeof mcpClient>[0] = {}): Promise<string[]> {
  return withClient(opts, async (c) => (await c.listTools()).tools.map((t) => t.name));
}

/** POST /public/mcp/... with raw headers (node:http, so that Host can be set). */
function rawPost(
  headers: Record<string, string>,
  body: unknown = INITIALIZE,
  url = new URL(MCP_URL),
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

describe("tools of a key", () => {
  it.each<TEra>(["legacy", "modern"])("lists one tool per AI-enabled, granted API plus the run tools, in slug order (%s client)", async (era) => {
    await withClient({ era }, async (c) => {
      const { tools } = await c.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual((await expectedTools(DEMO_KEY)).concat(RUN_TOOLS));
      for (const name of [...DEMO_TOOLS, slowSlug.replace(/-/g, "_")]) expect(names).toContain(name);
      const cities = tools.find((t) => t.name === "cities_in_area")!;
      expect(cities.title).toBe("Cities in area");
      expect(cities.description).toContain("run_id");
      expect(cities.description).toMatch(/kept 168 hours/);
      const props = cities.inputSchema.properties as Record<string, any>;
      expect(Object.keys(props).sort()).toEqual(["area", "cities", "formats", "min_population", "wait_seconds"]);
      expect(props.min_population).toMatchObject({ type: "integer", minimum: 0, default: 0 });
      expect(props.wait_seconds).toMatchObject({ type: "integer", minimum: 0, maximum: 55, default: 20 });
      expect(cities.inputSchema.required).toEqual(["cities", "area"]);
      expect(cities.outputSchema?.properties).toHaveProperty("run_id");
      // The same JSON Schema pieces as the HTTP request body (what POST /runs validates and OpenAPI shows).
      const { rows } = await sql().query(
        `SELECT v.definition FROM flow_api f JOIN environment_api ea ON ea."flowApiId" = f.id JOIN release r ON r.id = ea."releaseId" JOIN flow_version v ON v.id = r."flowVersionId" WHERE f.slug = 'cities-in-area'`,
      );
      const request = runRequestJsonSchema(ZFlowVersion.parse(rows[0].definition)) as any;
      expect(props.min_population).toEqual(request.properties.parameters.properties.min_population);
      // Inputs: as in the OpenAPI document, readable layers included (descriptions and x- notes aside).
      const openapi = (await http("GET", `${apiPath("cities-in-area")}/openapi.json`)).body as any;
      const plain = (piece: Record<string, unknown>) => Object.fromEntries(Object.entries(piece).filter(([k]) => k !== "description" && !k.startsWith("x-")));
      for (const input of ["cities", "area"])
        expect(plain(props[input])).toEqual(plain(openapi.components.schemas.RunRequest.properties.inputs.properties[input]));
      const layerId = props.cities.anyOf.find((v: any) => v.properties?.layer_id).properties.layer_id;
      expect(layerId.examples).toContain("world-cities");
      expect(layerId.examples).not.toContain("world-countries");
      expect(props.cities.description).toMatch(/Readable feature layers of point geometry .* for layer_id: .*world-cities \(Point, 135,233 features\)/);
      expect(props.formats.properties).toEqual(request.properties.formats.properties);
      const country = tools.find((t) => t.name === "country_stats")!;
      expect((country.inputSchema.properties as any).top).toMatchObject({ type: "integer", minimum: 1, maximum: 250, default: 10 });
    });
  });

  it("follows the switch and the grants, and says so at once", async () => {
    try {
      await setAiSwitch("country-stats", false);
      await waitFor("country_stats to disappear", async () => !(await toolNames()).includes("country_stats"), 10_000);
    } finally {
      await setAiSwitch("country-stats", true);
    }
    await waitFor("country_stats to come back", async () => (await toolNames()).includes("country_stats"), 10_000);
    const onlyCities = await createConsumer({ grants: ["cities-in-area"] });
    expect(await toolNames({ key: onlyCities.secret })).toEqual(["cities_in_area", ...RUN_TOOLS]);
    const none = await createConsumer({ grants: [] });
    expect(await toolNames({ key: none.secret })).toEqual(RUN_TOOLS);
  });

  it("tells 2026-07-28 clients on their listen stream when the tool list changes", async () => {
    const lists: string[][] = [];
    const client = new Client(
      { name: "flow-api-tests", version: "1.0.0" },
      {
        versionNegotiation: { mode: { pin: "2026-07-28" } },
        listChanged: { tools: { debounceMs: 0, onChanged: (err, tools) => void (!err && tools && lists.push(tools.map((t) => t.name))) } },
      },
    );
    // The listen stream opens in the background: its answer arriving means the server holds it.
    let listening = () => {};
    const listenOpen = new Promise<void>((r) => (listening = r));
    const watchingFetch: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if ((init?.method ?? "GET") === "GET" || String(init?.body ?? "").includes("subscriptions/listen")) listening();
      return res;
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(MCP_URL), { requestInit: { headers: { "x-api-key": DEMO_KEY } }, fetch: watchingFetch }));
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      await listenOpen;
      await setAiSwitch("country-stats", false);
      await waitFor("a list without country_stats", async () => lists.some((l) => !l.includes("country_stats")), 10_000);
    } finally {
      await setAiSwitch("country-stats", true);
      await client.close();
    }
  });

  it("tells 2025-era clients, served without sessions, that it sends no list changes", async () => {
    await withClient({ era: "legacy" }, async (c) => expect(c.getServerCapabilities()?.tools?.listChanged).toBe(false));
  });

  it("exposes an API only through the switch, which refuses name collisions and plans without AI access", async () => {
    const tiny = await createFlowApi({ definition: TINY_FLOW });
    expect(await toolNames()).not.toContain(tiny.replace(/-/g, "_"));
    const { rows } = await sql().query(
      `SELECT ea."environmentId", ea."flowApiId" FROM environment_api ea JOIN flow_api f ON f.id = ea."flowApiId" WHERE f.slug = $1`,
      [tiny],
    );
    await setAiAccess({ environmentId: rows[0].environmentId, flowApiId: rows[0].flowApiId, enabled: true });
    await waitFor("the new tool", async () => (await toolNames()).includes(tiny.replace(/-/g, "_")), 10_000);

    const clash = await createFlowApi({ definition: { ...TINY_FLOW, parameters: [{ name: "area", type: "integer", default: 1 }] } });
    const clashIds = (
      await sql().query(`SELECT ea."environmentId", ea."flowApiId" FROM environment_api ea JOIN flow_api f ON f.id = ea."flowApiId" WHERE f.slug = $1`, [clash])
    ).rows[0];
    const refused = await setAiAccess({ ...clashIds, enabled: true }).catch((e) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused.code).toBe("validation_failed");
    expect(refused.detail).toContain('"area"');
    expect(refused.errors.map((e: { field: string }) => e.field)).toEqual(["/inputs/0/name", "/parameters/0/name"]);
    // Even switched on behind the domain's back, a colliding flow is never offered.
    await setAiSwitch(clash, true);
    // Changes reach the web process in order: once a later one shows, the switch has been seen.
    const later = await createFlowApi({ definition: TINY_FLOW });
    await setAiSwitch(later, true);
    await waitFor("a tool switched on after the colliding one", async () => (await toolNames()).includes(later.replace(/-/g, "_")), 10_000);
    expect(await toolNames()).not.toContain(clash.replace(/-/g, "_"));

    const { workspaceId } = await createWorkspace(600); // its plan has no AI access
    const free = await createFlowApi({ definition: TINY_FLOW, workspaceId });
    const freeIds = (
      await sql().query(`SELECT ea."environmentId", ea."flowApiId" FROM environment_api ea JOIN flow_api f ON f.id = ea."flowApiId" WHERE f.slug = $1`, [free])
    ).rows[0];
    const noPlan = await setAiAccess({ ...freeIds, enabled: true }).catch((e) => e);
    expect(noPlan).toMatchObject({ code: "forbidden" });
    expect(noPlan.detail).toMatch(/does not include AI access/);
    expect(await setAiAccess({ ...freeIds, enabled: false })).toEqual({ aiAccess: false });
  });
});

describe("a quick call", () => {
  it.each<TEra>(["legacy", "modern"])("answers with the same run, results and files as POST /runs on the same input (%s client)", async (era) => {
    const mcp = await withClient({ era }, (c) => c.callTool({ name: "cities_in_area", arguments: CITIES_ARGS }));
    expect(mcp.isError).toBeFalsy();
    const doc = mcp.structuredContent as any;
    expect(doc.state).toBe("completed");
    expect(doc.next).toMatch(new RegExp(`^Call run_result with run_id "${doc.run_id}" and a result key \\(cities, summary\\)`));
    expect(doc.links.self).toBe(`${apiPath("cities-in-area")}/runs/${doc.run_id}`);

    const viaHttp = await http("POST", `${apiPath("cities-in-area")}/runs`, {
      body: { inputs: { cities: CITIES_ARGS.cities, area: CITIES_ARGS.area }, parameters: { min_population: 10000 }, wait_seconds: 30 },
    });
    expect(viaHttp.status).toBe(200);
    const strip = (r: any[]) => r.map(({ href: _h, ...rest }) => rest);
    expect(strip(doc.results)).toEqual(strip(viaHttp.body.results));
    // An independent count: a plain loop over the real data.
    expect(doc.results.find((r: any) => r.key === "cities").feature_count).toBe(citiesInPolygon(ZURICH_AREA as any, 10000).length);

    // Same files; the small ones come inline, every one as a signed link to the public download
    // that needs no key.
    for (const r of doc.results) {
      const [a, b] = await Promise.all([download(r.href), download(viaHttp.body.results.find((x: any) => x.key === r.key).href)]);
      expect(a.status).toBe(200);
      expect(a.bytes.equals(b.bytes)).toBe(true);
      const link = (mcp.content as any[]).find((c) => c.type === "resource_link" && c.uri.startsWith(`${BASE_URL}${r.href}?`));
      expect(link).toMatchObject({ mimeType: r.media_type, size: r.size_bytes });
      expect(new URL(link.uri).searchParams.get("format")).toBe(r.format);
      const viaLink = await fetch(link.uri);
      expect(viaLink.status).toBe(200);
      expect(Buffer.from(await viaLink.arrayBuffer()).equals(a.bytes)).toBe(true);
      const inline = (mcp.content as any[]).find((c) => c.type === "resource" && c.resource.uri === BASE_URL + r.href);
      expect(inline?.resource.text).toBe(a.bytes.toString("utf8"));
    }
    expect(textOf(mcp)).toMatch(/is completed.*Each result's resource link downloads its file: it needs no API key or token and works until \d{4}-/s);
  });

  it("sends progress (steps done of total) when the client asks for it", async () => {
    const seen: { progress: number; total?: number }[] = [];
    const result = await withClient({}, (c) =>
      c.callTool(
        { name: "country_stats", arguments: { cities: { layer_id: "world-cities" }, countries: { layer_id: "world-countries" }, top: 3 } },
        { onprogress: (p) => void seen.push(p) },
      ),
    );
    const doc = result.structuredContent as any;
    expect(doc.state).toBe("completed");
    expect(seen.length).toBeGreaterThan(0);
    for (const p of seen) expect(p.total).toBe(doc.progress.steps_total);
    for (let i = 1; i < seen.length; i++) expect(seen[i].progress).toBeGreaterThan(seen[i - 1].progress);
    expect(seen.at(-1)!.progress).toBe(doc.progress.steps_total);
  });
});

describe("a long call", () => {
  it("answers with the run_id and what to call next; run_status, run_result and run_cancel complete it", async () => {
    await withClient({}, async (c) => {
      const started = await c.callTool({ name: slowSlug.replace(/-/g, "_"), arguments: { cities: { layer_id: "world-cities" }, wait_seconds: 1 } });
      expect(started.isError).toBeFalsy();
      const doc = started.structuredContent as any;
      expect(["queued", "running"]).toContain(doc.state);
      expect(doc.next).toMatch(/run_status/);
      expect(textOf(started)).toContain(doc.run_id);

      const status = await c.callTool({ name: "run_status", arguments: { run_id: doc.run_id } });
      expect((status.structuredContent as any).run_id).toBe(doc.run_id);
      expect(["queued", "running"]).toContain((status.structuredContent as any).state);

      const early = await c.callTool({ name: "run_result", arguments: { run_id: doc.run_id, key: "out" } });
      expect(early.isError).toBe(true);
      expect(textOf(early)).toMatch(/results exist only for completed runs/);

      const cancelled = await c.callTool({ name: "run_cancel", arguments: { run_id: doc.run_id } });
      expect((cancelled.structuredContent as any).state).toBe("cancelled");
      expect((cancelled.structuredContent as any).next).toBeUndefined(); // nothing left to call
      const again = await c.callTool({ name: "run_cancel", arguments: { run_id: doc.run_id } });
      expect(again.isError).toBe(true);
      expect(textOf(again)).toMatch(/already finished/);
      // The HTTP door sees the same run in the same state.
      expect((await http("GET", doc.links.self)).body.state).toBe("cancelled");
    });
  });

  it("run_result answers a file inline, in either format of its kind, equal to the download", async () => {
    await withClient({}, async (c) => {
      const run = (await c.callTool({ name: "cities_in_area", arguments: CITIES_ARGS })).structuredContent as any;
      const csv = await c.callTool({ name: "run_result", arguments: { run_id: run.run_id, key: "summary" } });
      const file = await download(`${run.links.self}/results/summary`);
      const embedded = (csv.content as any[]).find((x) => x.type === "resource").resource;
      expect(embedded.text).toBe(file.bytes.toString("utf8"));
      expect(parseCsv(file.bytes)[0].city_count).toBe(String(citiesInPolygon(ZURICH_AREA as any, 10000).length));
      expect(csv.structuredContent).toMatchObject({ run_id: run.run_id, key: "summary", format: "csv", inline: true, size_bytes: file.bytes.length });

      const parquet = await c.callTool({ name: "run_result", arguments: { run_id: run.run_id, key: "summary", format: "parquet" } });
      const pq = await download(`${run.links.self}/results/summary?format=parquet`);
      const blob = (parquet.content as any[]).find((x) => x.type === "resource").resource.blob;
      expect(Buffer.from(blob, "base64").equals(pq.bytes)).toBe(true);

      const wrong = await c.callTool({ name: "run_result", arguments: { run_id: run.run_id, key: "summary", format: "geojson" } });
      expect(wrong.isError).toBe(true);
      expect(textOf(wrong)).toContain("/format");
      const unknown = await c.callTool({ name: "run_result", arguments: { run_id: run.run_id, key: "nope" } });
      expect(unknown.isError).toBe(true);
    });
  });

  it("keeps running when the client drops the request", async () => {
    const client = await mcpClient();
    const abort = new AbortController();
    const call = client
      .callTool({ name: slowSlug.replace(/-/g, "_"), arguments: { cities: { layer_id: "world-cities" }, wait_seconds: 30 } }, { signal: abort.signal })
      .catch((e) => e);
    const runId = await waitFor("the run to start", async () => (await sql().query(`SELECT id FROM run`)).rows[0]?.id as string | undefined, 10_000);
    abort.abort();
    await call;
    await client.close();
    await new Promise((r) => setTimeout(r, 1500));
    const { rows } = await sql().query(`SELECT state FROM run WHERE id = $1`, [runId]);
    expect(["queued", "running"]).toContain(rows[0].state);
    await http("POST", `${apiPath(slowSlug)}/runs/${runId}/cancel`);
  });
});

describe("signed download links", () => {
  it("grant one file of one run with no header, are metered as a download, and refuse any change to them", async () => {
    const answer = await withClient({}, (c) => c.callTool({ name: "cities_in_area", arguments: CITIES_ARGS }));
    const doc = answer.structuredContent as any;
    const links = (answer.content as any[]).filter((b) => b.type === "resource_link").map((b) => new URL(b.uri));
    const cities = links.find((u) => u.pathname.endsWith("/results/cities"))!;
    const own = await download(`${doc.links.self}/results/cities`);

    const before = await demoUsage();
    const ok = await fetch(cities);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("etag")).toBe(own.headers.get("etag"));
    expect(Buffer.from(await ok.arrayBuffer()).equals(own.bytes)).toBe(true);
    expect((await demoUsage()).apiRequests).toBe(before.apiRequests + 1);
    // As the key's download: conditional requests and ranges.
    expect((await fetch(cities, { headers: { "if-none-match": own.headers.get("etag")! } })).status).toBe(304);
    const range = await fetch(cities, { headers: { range: "bytes=0-9" } });
    expect(range.status).toBe(206);
    expect(Buffer.from(await range.arrayBuffer()).equals(own.bytes.subarray(0, 10))).toBe(true);

    // Another run (of another consumer), result, format, API or expiry under the same signature: 401.
    const other = await withClient({ key: OTHER_KEY }, (c) => c.callTool({ name: "cities_in_area", arguments: CITIES_ARGS }));
    const otherRun = (other.structuredContent as any).run_id;
    const changed = (f: (u: URL) => void) => {
      const u = new URL(cities);
      f(u);
      return u;
    };
    for (const u of [
      changed((u) => (u.pathname = u.pathname.replace(doc.run_id, otherRun))),
      changed((u) => (u.pathname = u.pathname.replace(/cities$/, "summary"))),
      changed((u) => u.searchParams.set("format", "geoparquet")),
      changed((u) => (u.pathname = u.pathname.replace("/cities-in-area/", "/nearby-cities/"))),
      changed((u) => u.searchParams.set("expires", String(Number(u.searchParams.get("expires")) + 86_400))),
      changed((u) => u.searchParams.set("signature", "x")),
    ]) {
      const r = await fetch(u);
      expect(r.status, u.toString()).toBe(401);
      expect(await r.json()).toMatchObject({ code: "unauthorized", detail: expect.stringMatching(/download link is not valid/) });
    }
    // Without its query, the address is the key's download again.
    expect((await fetch(`${cities.origin}${cities.pathname}`)).status).toBe(401);
    // A link outlives neither the run's API being published nor its consumer's grant.
    await sql().query(
      `DELETE FROM access_grant WHERE "consumerId" = (SELECT "consumerId" FROM run WHERE id = $1) AND "flowApiId" = (SELECT "flowApiId" FROM run WHERE id = $1)`,
      [doc.run_id],
    );
    try {
      expect((await fetch(cities)).status).toBe(403);
    } finally {
      await sql().query(`INSERT INTO access_grant ("consumerId", "flowApiId") SELECT "consumerId", "flowApiId" FROM run WHERE id = $1`, [doc.run_id]);
    }
    expect((await fetch(cities)).status).toBe(200);
  });

  it("run_result gives a link for either format of the result, and says it needs no key", async () => {
    await withClient({}, async (c) => {
      const run = (await c.callTool({ name: "cities_in_area", arguments: CITIES_ARGS })).structuredContent as any;
      const parquet = await c.callTool({ name: "run_result", arguments: { run_id: run.run_id, key: "summary", format: "parquet" } });
      const file = parquet.structuredContent as any;
      expect(new URL(file.url).searchParams.get("format")).toBe("parquet");
      const expiresIn = Date.parse(file.url_expires_at) - Date.now();
      expect(expiresIn).toBeGreaterThan(0);
      expect(expiresIn).toBeLessThanOrEqual(3600_000);
      expect(textOf(parquet)).toContain(`The download link ${file.url} needs no API key or token and works until ${file.url_expires_at}`);
      const viaLink = await fetch(file.url);
      expect(viaLink.status).toBe(200);
      const withKey = await download(`${run.links.self}/results/summary?format=parquet`);
      expect(Buffer.from(await viaLink.arrayBuffer()).equals(withKey.bytes)).toBe(true);
    });
  });
});

describe("visibility", () => {
  it("answers 'No such run' for another consumer's run, an unknown one and a malformed id", async () => {
    const run = await withClient({}, (c) => c.callTool({ name: "cities_in_area", arguments: CITIES_ARGS }));
    const runId = (run.structuredContent as any).run_id;
    await withClient({ key: OTHER_KEY }, async (c) => {
      for (const [name, args] of [
        ["run_status", { run_id: runId }],
        ["run_result", { run_id: runId, key: "cities" }],
        ["run_cancel", { run_id: runId }],
        ["run_status", { run_id: "00000000-0000-4000-8000-000000000000" }],
        ["run_status", { run_id: "not-a-uuid" }],
      ] as const) {
        const r = await c.callTool({ name, arguments: args });
        expect(r.isError, name).toBe(true);
        expect(textOf(r)).toMatch(/^No such run/);
      }
    });
    // The owner still sees it.
    const own = await withClient({}, (c) => c.callTool({ name: "run_status", arguments: { run_id: runId } }));
    expect((own.structuredContent as any).state).toBe("completed");
  });
});

describe("list_layers", () => {
  it("lists the environment's readable layers with kind, geometry, items and the arguments each fits, and counts nothing", async () => {
    const before = await demoUsage();
    await withClient({}, async (c) => {
      const { tools } = await c.listTools();
      const tool = tools.find((t) => t.name === "list_layers")!;
      expect(tool.annotations).toMatchObject({ readOnlyHint: true });
      const r = await c.callTool({ name: "list_layers", arguments: {} });
      expect(r.isError).toBeFalsy();
      const layers = (r.structuredContent as any).layers as any[];
      const readable = (
        await sql().query(
          `SELECT l.id, l."itemCount" FROM environment_layer el JOIN layer l ON l."workspaceId" = el."workspaceId" AND l.id = el."layerId" JOIN environment e ON e.id = el."environmentId"
           JOIN organization o ON o.id = e."organizationId" WHERE o.slug = 'demo' AND e.slug = 'production'`,
        )
      ).rows;
      expect(layers.map((l) => l.id).sort()).toEqual(readable.map((l: any) => l.id).sort());
      expect(layers.find((l) => l.id === "world-cities")).toEqual({
        id: "world-cities",
        name: "World cities",
        kind: "features",
        geometry_types: ["Point"],
        item_count: 135_233,
        fits: expect.arrayContaining(["cities_in_area.cities", "country_stats.cities", "nearby_cities.cities"]),
      });
      expect(layers.find((l) => l.id === "world-cities").fits).not.toContain("country_stats.countries");
      // Other test files publish APIs of their own here; the demo's polygon input is among the fits, and no point input.
      expect(layers.find((l) => l.id === "world-countries").fits).toContain("country_stats.countries");
      expect(layers.find((l) => l.id === "world-countries").fits).not.toContain("cities_in_area.cities");
      expect(layers.find((l) => l.id === "world-capitals")).toMatchObject({
        kind: "table",
        geometry_types: [],
        item_count: 241,
        // other test files publish APIs with table inputs of their own here
        fits: expect.arrayContaining(["nearby_cities.places"]),
      });
      expect(textOf(r)).toContain("- world-cities (World cities; Point, 135233 features): fits ");
    });
    expect(await demoUsage()).toEqual(before);
  });

  it("the layer of the wrong geometry is refused, naming the argument and the readable layers that fit", async () => {
    await withClient({}, async (c) => {
      const r = await c.callTool({ name: "country_stats", arguments: { cities: { layer_id: "world-cities" }, countries: { layer_id: "world-cities" } } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain(
        '/countries/layer_id: Layer "world-cities" holds Point features; input "countries" needs polygon geometry (Polygon or MultiPolygon). (wrong_geometry_type)',
      );
      const unknown = await c.callTool({ name: "country_stats", arguments: { cities: { layer_id: "world-cities" }, countries: { layer_id: "countries" } } });
      expect(textOf(unknown)).toMatch(
        /\/countries\/layer_id: No layer "countries" is readable in this environment\. Readable layers for "countries": [^\n]*world-countries/,
      );
    });
    expect(await runCount()).toBe(0);
  });
});

describe("bad arguments", () => {
  it("are tool errors naming each argument, and start and count nothing", async () => {
    const before = await demoUsage();
    await withClient({}, async (c) => {
      const r = await c.callTool({
        name: "cities_in_area",
        arguments: {
          cities: { layer_id: "no-such-layer" },
          area: {
            area: {
              type: "Polygon",
              coordinates: [
                [
                  [0, 0],
                  [1, 1],
                  [1, 0],
                  [0, 1],
                  [0, 0],
                ],
              ],
            },
          },
          min_population: -1,
          colour: "red",
          wait_seconds: 99,
        },
      });
      expect(r.isError).toBe(true);
      const text = textOf(r);
      expect(text).toMatch(/nothing was started/);
      // every fault at once: the arguments' own, their form's, and the layer this environment may not read
      for (const pointer of ["/colour", "/wait_seconds", "/min_population", "/area/area/coordinates/0", "/cities/layer_id"]) expect(text).toContain(pointer);
      const missing = await c.callTool({ name: "country_stats", arguments: { top: "ten" } });
      expect(textOf(missing)).toContain("/cities");
      expect(textOf(missing)).toContain("/countries");
      expect(textOf(missing)).toContain("/top");
      const layer = await c.callTool({ name: "cities_in_area", arguments: { ...CITIES_ARGS, cities: { layer_id: "no-such-layer" } } });
      expect(layer.isError).toBe(true);
      expect(textOf(layer)).toContain("/cities/layer_id");
      expect(textOf(layer)).not.toContain("/inputs/");
    });
    expect(await runCount()).toBe(0);
    expect(await demoUsage()).toEqual(before);
  });
});

describe("argument faults said to the model", () => {
  it("list_layers refuses arguments its schema does not take, naming them", async () => {
    await withClient({}, async (c) => {
      const r = await c.callTool({ name: "list_layers", arguments: { colour: "red" } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/^The arguments are not valid; nothing was done\.\n- \/colour: /);
    });
  });

  it("text that cannot be stored names the argument in the text, not an errors list the model cannot see", async () => {
    await withClient({}, async (c) => {
      for (const [name, args, pointer] of [
        ["cities_in_area", { ...CITIES_ARGS, cities: { layer_id: "world-\u0000cities" } }, "/cities/layer_id"],
        ["run_status", { run_id: "\ud800" }, "/run_id"],
      ] as const) {
        const r = await c.callTool({ name, arguments: args });
        expect(r.isError, name).toBe(true);
        const [head] = textOf(r).split("\n");
        expect(head, name).toBe(`Argument ${pointer} holds text that cannot be stored; nothing was done.`);
        expect(textOf(r), name).not.toMatch(/see errors/);
      }
    });
    expect(await runCount()).toBe(0);
  });
});

describe("metering", () => {
  it("counts a run-starting call as one ETL run and one API request, each run tool as one request, and housekeeping, refusals and errors as nothing", async () => {
    const start = await demoUsage();
    await withClient({}, async (c) => {
      await c.listTools();
      await c.ping();
      await c.callTool({ name: "list_layers", arguments: {} }); // housekeeping too
      expect(await demoUsage()).toEqual(start);

      const run = (await c.callTool({ name: "cities_in_area", arguments: CITIES_ARGS })).structuredContent as any;
      const afterRun = await demoUsage();
      expect(afterRun.etlRuns).toBe(start.etlRuns + 1);
      expect(afterRun.apiRequests).toBe(start.apiRequests + 1);

      await c.callTool({ name: "run_status", arguments: { run_id: run.run_id } });
      await c.callTool({ name: "run_result", arguments: { run_id: run.run_id, key: "summary" } });
      const afterReads = await demoUsage();
      expect(afterReads.apiRequests).toBe(afterRun.apiRequests + 2);

      await c.callTool({ name: "run_cancel", arguments: { run_id: run.run_id } }); // finished: error
      await c.callTool({ name: "run_status", arguments: { run_id: "00000000-0000-4000-8000-000000000000" } });
      await c.callTool({ name: "cities_in_area", arguments: {} });
      const afterErrors = await demoUsage();
      expect([afterErrors.etlRuns, afterErrors.apiRequests]).toEqual([afterReads.etlRuns, afterReads.apiRequests]);
    });
    await rawPost({});
    await rawPost({ "x-api-key": "fapi_" + "Z".repeat(32) });
    expect((await demoUsage()).apiRequests).toBe(start.apiRequests + 3);
  });
});

/** A tool of its own workspace on a plan of 3 calls per minute, switched on for AI, and a consumer granted it. */
async function tightTool(prefix: string) {
  const planId = `${prefix}-${Date.now()}`;
  await sql().query(`INSERT INTO plan (id, name, "maxFlowApis", "aiAccess", "rateLimitPerMinute") VALUES ($1, 'AI tight', 10, true, 3)`, [planId]);
  const { organizationId } = (await sql().query(`SELECT id AS "organizationId" FROM organization WHERE slug = 'demo'`)).rows[0];
  const ws = (
    await sql().query(`INSERT INTO workspace (id, "organizationId", slug, name, "planId") VALUES (gen_random_uuid(), $1, $2, $2, $3) RETURNING id`, [
      organizationId,
      planId,
      planId,
    ])
  ).rows[0];
  const slug = await createFlowApi({ definition: TINY_FLOW, workspaceId: ws.id });
  await setAiSwitch(slug, true);
  return { slug, workspaceId: ws.id as string, consumer: await createConsumer({ grants: [slug] }) };
}

describe("rate limit", () => {
  it("spends the key's per-minute quota shared with HTTP calls; over it a tool call is a tool error and starts nothing", async () => {
    const { slug, consumer } = await tightTool("ai-tight");
    const tool = slug.replace(/-/g, "_");
    await awayFromMinuteEnd();
    await waitFor("the tool", async () => (await toolNames({ key: consumer.secret })).includes(tool), 10_000);
    const args = { area: { area: ZURICH_AREA }, wait_seconds: 10 };
    const viaHttp = await http("POST", `${apiPath(slug)}/runs`, { key: consumer.secret, body: { inputs: { area: args.area }, wait_seconds: 10 } }); // 1 of 3
    expect(viaHttp.status).toBe(200);
    await withClient({ key: consumer.secret }, async (c) => {
      expect((await c.callTool({ name: tool, arguments: args })).isError).toBeFalsy(); // 2
      expect((await c.callTool({ name: tool, arguments: args })).isError).toBeFalsy(); // 3
      await c.listTools(); // housekeeping spends nothing
      const limited = await c.callTool({ name: tool, arguments: args });
      expect(limited.isError).toBe(true);
      expect(textOf(limited)).toMatch(/3 calls per minute[\s\S]*Retry after \d+ s/);
    });
    expect((await sql().query(`SELECT count(*)::int AS n FROM run WHERE "flowApiId" = (SELECT id FROM flow_api WHERE slug = $1)`, [slug])).rows[0].n).toBe(3);
    expect((await http("POST", `${apiPath(slug)}/runs`, { key: consumer.secret, body: { inputs: { area: args.area } } })).status).toBe(429);
  });
});

describe("rate limit of calls that name no run of the key", () => {
  it("spends the quota too: unknown or malformed run_ids and bad run tool arguments count as calls", async () => {
    const { slug, workspaceId, consumer } = await tightTool("ai-tight-runs");
    await awayFromMinuteEnd();
    await waitFor("the tool", async () => (await toolNames({ key: consumer.secret })).includes(slug.replace(/-/g, "_")), 10_000);
    await withClient({ key: consumer.secret }, async (c) => {
      for (const [name, args] of [
        ["run_status", { run_id: "00000000-0000-4000-8000-000000000000" }],
        ["run_result", { run_id: "not-a-uuid", key: "out" }],
        ["run_cancel", { run_id: "00000000-0000-4000-8000-000000000000", colour: "red" }],
      ] as const) {
        const r = await c.callTool({ name, arguments: args });
        expect(r.isError, name).toBe(true);
        expect(textOf(r), name).not.toMatch(/calls per minute/);
      }
      const limited = await c.callTool({ name: "run_status", arguments: { run_id: "00000000-0000-4000-8000-000000000000" } });
      expect(limited.isError).toBe(true);
      expect(textOf(limited)).toMatch(/3 calls per minute[\s\S]*Retry after \d+ s/);
    });
    // The same counter as the key's HTTP calls to the API's workspace.
    const { rows } = await sql().query(`SELECT sum(count)::int AS n FROM rate_limit_window WHERE "workspaceId" = $1`, [workspaceId]);
    expect(rows[0].n).toBe(4);
  });
});

describe("refusals", () => {
  it("answers a missing or invalid credential with 401, a JSON body and the OAuth challenge pointing at the resource metadata", async () => {
    const metadata = `resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource${MCP_PATH}"`;
    const refusedHeaders: Record<string, string>[] = [
      {},
      { "x-api-key": "fapi_" + "Z".repeat(32) },
      { "x-api-key": "nonsense" },
      { authorization: "Bearer fapi_" + "Z".repeat(32) },
      { authorization: "Basic abc" },
    ];
    for (const headers of refusedHeaders) {
      const r = await rawPost(headers);
      expect(r.status, JSON.stringify(headers)).toBe(401);
      // A Bearer (or key) credential that was sent and refused is an invalid token (RFC 6750 section 3.1).
      const sent = "x-api-key" in headers || /^Bearer /.test(headers.authorization ?? "");
      expect(r.headers["www-authenticate"], JSON.stringify(headers)).toBe(
        sent ? `Bearer error="invalid_token", ${metadata}, scope="mcp"` : `Bearer ${metadata}, scope="mcp"`,
      );
      expect(String(r.headers["content-type"])).toMatch(/json/);
      expect(JSON.parse(r.body)).toMatchObject({ status: 401, code: "unauthorized" });
    }
    const other = await createEnvironment();
    const elsewhere = await createConsumer({ environmentId: other.id });
    expect((await rawPost({ "x-api-key": elsewhere.secret })).status).toBe(401);
    const revoked = await createConsumer({ grants: ["cities-in-area"], revokedAt: new Date() });
    expect((await rawPost({ "x-api-key": revoked.secret })).status).toBe(401);
  });

  it("accepts the key as Authorization: Bearer", async () => {
    expect(await toolNames({ bearer: true })).toContain("cities_in_area");
  });

  it("answers 403 with a clear message when the environment's plan has no AI access", async () => {
    const env = await createEnvironment();
    const { workspaceId } = await createWorkspace(600);
    const slug = await createFlowApi({ definition: TINY_FLOW, workspaceId, publish: false, grantDemo: false });
    await sql().query(
      `WITH v AS (SELECT "selectedFlowVersionId" AS vid, id AS aid FROM flow_api WHERE slug = $1),
            r AS (INSERT INTO release (id, "flowApiId", "environmentId", "flowVersionId", number) SELECT gen_random_uuid(), aid, $2, vid, 1 FROM v RETURNING id, "flowApiId")
       INSERT INTO environment_api ("environmentId", "flowApiId", "releaseId", "aiAccess", "updatedAt") SELECT $2, "flowApiId", id, true, now() FROM r`,
      [slug, env.id],
    );
    const consumer = await createConsumer({ environmentId: env.id, grants: [slug] });
    const r = await rawPost({ "x-api-key": consumer.secret }, INITIALIZE, new URL(`${BASE_URL}/public/mcp/demo/${env.slug}`));
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body).detail).toMatch(/not included in the plan/);
    // The HTTP API of the same key keeps working.
    const viaHttp = await http("POST", `/public/api/demo/${env.slug}/${slug}/runs`, {
      key: consumer.secret,
      body: { inputs: { area: { area: ZURICH_AREA } }, wait_seconds: 30 },
    });
    expect(viaHttp.status).toBe(200);
  });

  it("refuses foreign Host and Origin headers (DNS rebinding) and serves its own", async () => {
    const key = { "x-api-key": DEMO_KEY };
    expect((await rawPost({ ...key, host: "evil.example.com" })).status).toBe(403);
    expect((await rawPost({ ...key, origin: "http://evil.example.com" })).status).toBe(403);
    expect((await rawPost({ ...key, origin: `http://localhost:${new URL(BASE_URL).port}` })).status).toBe(200);
    expect((await rawPost(key)).status).toBe(200);
  });

  it("has no sessions: GET and DELETE are 405", async () => {
    for (const method of ["GET", "DELETE"]) {
      const r = await fetch(MCP_URL, { method, headers: { "x-api-key": DEMO_KEY, accept: "text/event-stream" } });
      expect(r.status, method).toBe(405);
    }
  });

  it("answers 404 for an organization or environment that does not exist, whose metadata is 404 too; a 401's metadata exists", async () => {
    for (const path of ["/public/mcp/demo/nope", "/public/mcp/no-such-org/production"]) {
      for (const headers of [{}, { "x-api-key": DEMO_KEY }, { authorization: "Bearer some-token" }] as Record<string, string>[]) {
        const r = await rawPost(headers, INITIALIZE, new URL(BASE_URL + path));
        expect(r.status, `${path} ${JSON.stringify(headers)}`).toBe(404);
        expect(r.headers["www-authenticate"]).toBeUndefined();
        expect(JSON.parse(r.body)).toMatchObject({ status: 404, code: "not_found" });
      }
      expect((await fetch(`${BASE_URL}/.well-known/oauth-protected-resource${path}`)).status).toBe(404);
    }
    const challenge = String((await rawPost({})).headers["www-authenticate"]);
    const metadataUrl = challenge.match(/resource_metadata="([^"]+)"/)![1]!;
    const metadata = await fetch(metadataUrl);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({ resource: MCP_URL });
  });
});
