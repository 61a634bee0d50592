/**
 * Layer inputs by reference (`{"href": ...}`, issue 28) over real HTTP: a local file server on
 * 127.0.0.1 (reachable through the demo environment's outbound allow-list) serves the world's
 * cities of 100,000 people or more as GeoJSON, GeoJSON Text Sequences, CSV and GeoParquet; the
 * worker fetches and imports each, and the results equal those of the same cities sent inline
 * and a plain loop's. A 404 and a 500 fail the run naming the input and the status; an http URL
 * or a private address off the allow-list is refused at the door (422 naming the field); a
 * redirect to a private address fails the run; a file past the per-run limit (RUN_MAX_INPUT_MB,
 * 4 in `npm test`) fails with `resources_exhausted`; nothing of the fetched file is left in the
 * blob store once the run is final; the URL leaves the stored request; the OGC door takes a link.
 */
import http, { type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { blobStore } from "@/lib/blobs";
import { sweepBlobs } from "@/lib/runs/purge";
import type { TFeature } from "@/lib/engine/types";
import type { Polygon } from "geojson";
import { apiPath, citiesInPolygon, download, http as call, referenceCities, resetRuns, sql } from "./helpers";
import { createFlowApi, demoIds, expectProblem } from "./contract-helpers";

const FLOW = {
  description: "The places inside an area",
  inputs: [
    { name: "places", kind: "layer", geometry: "point" },
    { name: "area", kind: "area" },
  ],
  parameters: [],
  steps: [{ id: "inside", type: "spatial_filter", source: "places", by: "area" }],
  results: [{ key: "out", kind: "layer", from: "inside" }],
};
/** The places as given: for making the GeoParquet file the server serves. */
const ECHO_FLOW = {
  description: "The places as a layer",
  inputs: [{ name: "places", kind: "layer" }],
  parameters: [],
  steps: [],
  results: [{ key: "out", kind: "layer", from: "places" }],
};

let api: string;
let server: Server;
let base: string;
let environmentId: string;
const files = new Map<string, { type: string; body: Buffer }>();
let requests: string[] = [];

/** Western and central Europe (a few hundred of the cities). */
const EUROPE: Polygon = {
  type: "Polygon",
  coordinates: [
    [
      [-10, 36],
      [25, 36],
      [30, 55],
      [10, 62],
      [-10, 55],
      [-10, 36],
    ],
  ],
};

const bigCities = (): TFeature[] => referenceCities().filter((f) => (f.properties.population as number) >= 100_000);

function csvCell(v: unknown): string {
  const s = String(v ?? "");
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

beforeAll(async () => {
  api = await createFlowApi({ definition: FLOW });
  const echo = await createFlowApi({ definition: ECHO_FLOW });
  environmentId = (await demoIds()).environmentId;
  const cities = bigCities();
  const fc = { type: "FeatureCollection", features: cities };
  files.set("/cities.geojson", { type: "application/geo+json", body: Buffer.from(JSON.stringify(fc)) });
  files.set("/cities-seq", { type: "application/geo+json-seq", body: Buffer.from(cities.map((f) => `\x1e${JSON.stringify(f)}\n`).join("")) });
  const header = "geonameid,name,country,population,lon,lat";
  const rows = cities.map((f) => {
    const p = f.properties;
    const [lon, lat] = (f.geometry as { coordinates: number[] }).coordinates;
    return [p.geonameid, p.name, p.country, p.population, lon, lat].map(csvCell).join(",");
  });
  files.set("/cities.csv", { type: "text/csv; charset=utf-8", body: Buffer.from([header, ...rows].join("\n")) });
  // The GeoParquet the service itself writes for the same cities; served as an opaque download (found by the extension).
  const made = await call("POST", `${apiPath(echo)}/runs`, { body: { inputs: { places: { geojson: fc } }, formats: { out: "geoparquet" }, wait_seconds: 60 } });
  expect(made.body.state, made.text).toBe("completed");
  files.set("/data/cities.parquet", { type: "application/octet-stream", body: (await download(made.body.results[0].href)).bytes });

  server = http.createServer((req, res) => {
    requests.push(req.url ?? "");
    const path = (req.url ?? "").split("?")[0]!;
    const file = files.get(path);
    if (file) return void res.writeHead(200, { "content-type": file.type }).end(file.body);
    if (path === "/broken") return void res.writeHead(500).end("oops");
    if (path === "/to-private") return void res.writeHead(302, { location: "https://10.11.12.13/cities.geojson" }).end();
    if (path === "/big.geojson") {
      // 6 MiB of features, past the 4 MiB limit of the test app: the worker must stop reading.
      res.writeHead(200, { "content-type": "application/geo+json" });
      const feature = JSON.stringify({ type: "Feature", geometry: { type: "Point", coordinates: [8.5, 47.4] }, properties: { pad: "x".repeat(1000) } });
      res.write('{"type":"FeatureCollection","features":[');
      let sent = 0;
      const more = () => {
        while (sent < 6 * 1024 * 1024) {
          const ok = res.write(`${sent ? "," : ""}${feature}`);
          sent += feature.length + 1;
          if (!ok) return void res.once("drain", more);
        }
        res.end("]}");
      };
      res.on("error", () => {});
      return more();
    }
    res.writeHead(404).end("no such file");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await sql().query(`UPDATE environment SET "outboundHosts" = ARRAY['127.0.0.1'] WHERE id = $1`, [environmentId]);
});

beforeEach(async () => {
  await resetRuns();
  requests = [];
});

afterAll(async () => {
  await sql().query(`UPDATE environment SET "outboundHosts" = ARRAY[]::text[] WHERE id = $1`, [environmentId]);
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

async function runWith(places: unknown): Promise<any> {
  const r = await call("POST", `${apiPath(api)}/runs`, { body: { inputs: { places, area: { area: EUROPE } }, wait_seconds: 60 } });
  expect(r.status, r.text).toBe(200);
  return r.body;
}

/** A result's features as comparable records (name, position to 1e-6 degrees, population), sorted. */
async function outFeatures(run: any): Promise<string[]> {
  expect(run.state, JSON.stringify(run.error)).toBe("completed");
  const fc = JSON.parse((await download(run.results.find((r: any) => r.key === "out").href)).bytes.toString("utf8"));
  return comparable(fc.features);
}

function comparable(features: TFeature[]): string[] {
  return features
    .map((f) => {
      const [x, y] = (f.geometry as { coordinates: number[] }).coordinates.map((c) => Math.round(c * 1e6) / 1e6);
      return `${f.properties.name}|${x}|${y}|${Number(f.properties.population)}`;
    })
    .sort();
}

async function inputBlobs(runId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const b of blobStore().list(`runs/${runId}/input-files/`)) keys.push(b.key);
  return keys;
}

describe("a layer input by reference", () => {
  it("reads GeoJSON, GeoJSON Text Sequences, CSV and GeoParquet like the same cities sent inline", async () => {
    const expected = comparable(citiesInPolygon(EUROPE, 100_000));
    expect(expected.length).toBeGreaterThan(100);
    const inline = await outFeatures(await runWith({ geojson: { type: "FeatureCollection", features: bigCities() } }));
    expect(inline).toEqual(expected);
    for (const path of ["/cities.geojson", "/cities-seq", "/cities.csv", "/data/cities.parquet"]) {
      const run = await runWith({ href: `${base}${path}?signature=abc` });
      expect(await outFeatures(run), path).toEqual(expected);
      expect(run.progress, path).toEqual({ steps_done: 2, steps_total: 2 });
      expect(await inputBlobs(run.run_id), path).toEqual([]);
      const stored = await sql().query(`SELECT request FROM run WHERE id = $1`, [run.run_id]);
      expect(JSON.stringify(stored.rows[0].request)).not.toContain(base);
    }
    expect(requests).toEqual(["/cities.geojson", "/cities-seq", "/cities.csv", "/data/cities.parquet"].map((p) => `${p}?signature=abc`));
  });

  it("takes the format from the type member when neither the server nor the URL tells it", async () => {
    files.set("/opaque", { type: "application/octet-stream", body: files.get("/cities.csv")!.body });
    const run = await runWith({ href: `${base}/opaque`, type: "text/csv" });
    expect(await outFeatures(run)).toEqual(comparable(citiesInPolygon(EUROPE, 100_000)));
    const unknown = await runWith({ href: `${base}/opaque` });
    expect(unknown.state).toBe("failed");
    expect(unknown.error.code).toBe("invalid_input");
    expect(unknown.error.message).toMatch(/^Input `places`: cannot tell the format of http:\/\/127\.0\.0\.1:\d+\/opaque/);
  });

  it("fails the run naming the input and the status of a 404 and a 500", async () => {
    const missing = await runWith({ href: `${base}/nothing.geojson?token=secret` });
    expect(missing.state).toBe("failed");
    expect(missing.error).toEqual({ code: "invalid_input", message: `Input \`places\`: GET ${base}/nothing.geojson?… answered 404 Not Found.` });
    const broken = await runWith({ href: `${base}/broken` });
    expect(broken.error).toEqual({ code: "invalid_input", message: `Input \`places\`: GET ${base}/broken answered 500 Internal Server Error.` });
  });

  it("fails the run when a redirect leads to a private address", async () => {
    const run = await runWith({ href: `${base}/to-private` });
    expect(run.state).toBe("failed");
    expect(run.error.code).toBe("invalid_input");
    expect(run.error.message).toBe(`Input \`places\`: GET ${base}/to-private refused: 10.11.12.13 is a private, loopback or reserved address.`);
  });

  it("fails a file past the per-run limit with resources_exhausted naming the input and the limit, leaving nothing behind", async () => {
    const run = await runWith({ href: `${base}/big.geojson` });
    expect(run.state).toBe("failed");
    expect(run.error).toMatchObject({ code: "resources_exhausted", limit: "inputs by reference 4 MiB" });
    expect(run.error.message).toBe(`Input \`places\`: ${base}/big.geojson is larger than the 4 MiB the inputs of a run may take together (RUN_MAX_INPUT_MB).`);
    expect(await inputBlobs(run.run_id)).toEqual([]);
  });

  it("refuses at the door, naming the field, an http URL or a private address off the allow-list", async () => {
    await sql().query(`UPDATE environment SET "outboundHosts" = ARRAY[]::text[] WHERE id = $1`, [environmentId]);
    try {
      const body = (href: string) => ({ inputs: { places: { href }, area: { area: EUROPE } } });
      const plain = expectProblem(await call("POST", `${apiPath(api)}/runs`, { body: body(`${base}/cities.geojson`) }), 422, "validation_failed");
      expect(plain.errors).toEqual([{ field: "/inputs/places/href", code: "url_not_allowed", message: expect.stringMatching(/^Only https URLs are allowed/) }]);
      const privateIp = expectProblem(await call("POST", `${apiPath(api)}/runs`, { body: body("https://192.168.1.20/cities.geojson") }), 422);
      expect(privateIp.errors).toEqual([
        { field: "/inputs/places/href", code: "url_not_allowed", message: "192.168.1.20 is a private, loopback or reserved address." },
      ]);
      const notUrl = expectProblem(await call("POST", `${apiPath(api)}/runs`, { body: body("file:///etc/passwd") }), 422);
      expect(notUrl.errors.map((e: any) => e.field)).toEqual(["/inputs/places/href"]);
      expect((await sql().query(`SELECT count(*)::int AS n FROM run`)).rows[0].n).toBe(0);
      expect(requests).toEqual([]);
    } finally {
      await sql().query(`UPDATE environment SET "outboundHosts" = ARRAY['127.0.0.1'] WHERE id = $1`, [environmentId]);
    }
  });

  it("leaves the maintenance sweep to remove an imported input a dead worker left behind, keeping the results", async () => {
    const run = await runWith({ href: `${base}/cities.geojson` });
    expect(run.state).toBe("completed");
    // As if the worker had died between the final state and deleting the input's file.
    const leftover = `runs/${run.run_id}/input-files/places/layer`;
    await blobStore().put(
      leftover,
      (async function* () {
        yield Buffer.from("PAR1");
      })(),
    );
    // A sweep an hour and more later (past its grace period for files being written).
    await sweepBlobs(Date.now() + 2 * 3600_000);
    expect(await inputBlobs(run.run_id)).toEqual([]);
    expect((await download(run.results[0].href)).status).toBe(200);
  });

  it("is taken by the OGC door as a link with a media type", async () => {
    files.set("/ogc-link", { type: "application/octet-stream", body: files.get("/cities.geojson")!.body });
    const r = await call("POST", `/public/ogc/demo/production/processes/${api}/execution`, {
      body: { inputs: { places: { href: `${base}/ogc-link`, type: "application/geo+json", rel: "item" }, area: { value: EUROPE } } },
    });
    expect(r.status, r.text).toBe(200);
    expect(comparable(r.body.out.value.features)).toEqual(comparable(citiesInPolygon(EUROPE, 100_000)));
  });
});

describe("a table input by reference", () => {
  it("reads a CSV as the table's rows, longitude/latitude columns included, like the same rows sent inline", async () => {
    const places = [
      { id: "zurich", lon: 8.54, lat: 47.37 },
      { id: "geneva", lon: 6.14, lat: 46.2 },
    ];
    files.set("/places.csv", { type: "text/csv", body: Buffer.from(["id,lon,lat", ...places.map((p) => `${p.id},${p.lon},${p.lat}`)].join("\n")) });
    const run = async (value: unknown) => {
      const r = await call("POST", `${apiPath("nearby-cities")}/runs`, {
        body: { inputs: { places: value, cities: { layer_id: "world-cities" } }, parameters: { radius_km: 20 }, wait_seconds: 60 },
      });
      expect(r.body.state, r.text).toBe("completed");
      return Promise.all(r.body.results.map(async (x: any) => [x.key, (await download(x.href)).bytes.toString("utf8")]));
    };
    const byHref = await run({ href: `${base}/places.csv` });
    expect(byHref).toEqual(await run({ rows: places }));
    expect(byHref.find(([key]: string[]) => key === "matches")![1]).toMatch(/zurich/);
  });
});
