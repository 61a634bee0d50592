/**
 * Property-based contract of POST /runs (fast-check): thousands of invalid bodies, random
 * JSON and mutations of valid bodies of the three demo APIs (keys dropped or added, wrong
 * types, huge numbers, NaN-like strings, deep nesting, invalid GeoJSON, more than 5,000
 * rows), are thrown at the running app over HTTP. Every answer must be a 4xx with an RFC
 * 9457 problem body, never a 5xx, and no run and no usage may be created.
 *
 * Bodies are invalid by construction; random JSON is additionally classified with the
 * flow's own validator and skipped in the rare case it is valid.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ZFlowVersion } from "@/lib/flows/definition";
import { parseRunRequest } from "@/lib/flows/run-request";
import { DEMO_FLOWS } from "@/lib/demo/flows";
import { apiPath, BASE_URL, DEMO_KEY, demoUsage, resetRuns, runCount } from "./helpers";
import { ZURICH_AREA as AREA } from "./contract-helpers";

const VALID: Record<string, Record<string, any>> = {
  "cities-in-area": {
    inputs: { cities: { layer_id: "world-cities" }, area: { area: AREA } },
    parameters: { min_population: 1000 },
    formats: { cities: "geojson", summary: "csv" },
    wait_seconds: 0,
  },
  "country-stats": {
    inputs: { cities: { layer_id: "world-cities" }, countries: { layer_id: "world-countries" } },
    parameters: { min_population: 0, top: 5 },
    formats: { ranking: "parquet" },
  },
  "nearby-cities": {
    inputs: { places: { rows: [{ id: "a", lon: 8.5, lat: 47.3 }] }, cities: { layer_id: "world-cities" } },
    parameters: { radius_km: 10, min_population: 0 },
  },
};
const FLOWS = Object.fromEntries(DEMO_FLOWS.map((d) => [d.apiSlug, ZFlowVersion.parse(d.definition)]));

const clone = <T>(v: T): T => structuredClone(v);
const nested = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};
const weird = fc.constantFrom<unknown>(
  "NaN",
  "Infinity",
  "-Infinity",
  "1e309",
  "",
  " ",
  "0x10",
  "null",
  "true",
  "١٢٣",
  1e308,
  -1e308,
  2 ** 53 + 1,
  -0.0000001,
  1.5,
  {},
  [],
  [[[]]],
  true,
  null,
  "a".repeat(300),
);
const wrongType = fc.oneof(weird, fc.string(), fc.boolean(), fc.array(fc.integer(), { maxLength: 3 }), fc.object({ maxDepth: 1 }));

type TMutation = (body: Record<string, any>, api: string) => Record<string, any> | unknown;

/** Mutations that always make a valid body invalid. */
const mutations: fc.Arbitrary<TMutation>[] = [
  // drop a required input
  fc.nat().map((n) => (b: any, api: string) => {
    const names = FLOWS[api]!.inputs.map((i) => i.name);
    delete b.inputs[names[n % names.length]!];
    return b;
  }),
  // add an unknown key somewhere
  fc
    .tuple(
      fc.constantFrom("", "inputs", "parameters", "formats"),
      fc.string({ minLength: 1, maxLength: 8 }).map((s) => `zz_${s}`),
      fc.jsonValue(),
    )
    .map(([where, k, v]) => (b: any) => {
      if (where === "") b[k] = v;
      else (b[where] ??= {})[k] = v;
      return b;
    }),
  // parameter of the wrong type or out of range
  fc.tuple(fc.nat(), fc.oneof(wrongType, fc.constantFrom(-1, -1e12, 1e12, 251, 0.5, 501))).map(([n, v]) => (b: any, api: string) => {
    const params = FLOWS[api]!.parameters;
    const p = params[n % params.length]!;
    const valid = parseRunRequest(FLOWS[api]!, { ...b, parameters: { ...b.parameters, [p.name]: v } });
    b.parameters = { ...b.parameters, [p.name]: valid.ok ? "definitely-not-a-number" : v };
    return b;
  }),
  // input value of the wrong form or type
  fc
    .tuple(
      fc.nat(),
      fc.oneof(wrongType, fc.constantFrom({ layer_id: "" }, { layer_id: 5 }, { rows: "x" }, { geojson: [] }, { area: "x" }, { layer_id: "a", rows: [] })),
    )
    .map(([n, v]) => (b: any) => {
      const keys = Object.keys(b.inputs);
      b.inputs[keys[n % keys.length]!] = v;
      return b;
    }),
  // wait_seconds / formats out of range
  fc
    .oneof(
      fc.constantFrom(-1, 61, 1e9, 0.5, "10", null, true),
      weird.filter((v) => !(typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= 60)),
    )
    .map((v) => (b: any) => ({ ...b, wait_seconds: v })),
  fc.tuple(fc.nat(), fc.oneof(fc.constantFrom("xlsx", "GEOJSON", "", "shapefile"), wrongType)).map(([n, v]) => (b: any, api: string) => {
    const results = FLOWS[api]!.results;
    const r = results[n % results.length]!;
    const wrongKind = r.kind === "layer" ? "csv" : "geojson";
    b.formats = { ...b.formats, [r.key]: typeof v === "string" && v !== "" ? v : wrongKind };
    return b;
  }),
  // deep nesting in a parameter or an input
  fc.integer({ min: 50, max: 3000 }).map((d) => (b: any) => {
    b.parameters = { ...b.parameters, [Object.keys(b.parameters ?? { x: 1 })[0]!]: nested(d) };
    return b;
  }),
  // invalid GeoJSON / area: [value, also invalid as a feature geometry?]
  fc
    .constantFrom<[unknown, boolean]>(
      [
        {
          type: "Polygon",
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
            ],
          ],
        },
        true,
      ], // not closed, too few positions
      [
        {
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
        false,
      ], // self-intersecting (areas only)
      [
        {
          type: "Polygon",
          coordinates: [
            [
              [0, 0],
              [200, 0],
              [1, 1],
              [0, 0],
            ],
          ],
        },
        true,
      ], // lon out of range
      [
        {
          type: "Polygon",
          coordinates: [
            [
              [0, 0],
              [1, 95],
              [1, 1],
              [0, 0],
            ],
          ],
        },
        true,
      ], // lat out of range
      [{ type: "Point", coordinates: [0, 0] }, false], // not a polygon (areas only)
      [{ type: "Polygon", coordinates: "x" }, true],
      [
        {
          type: "Polygon",
          coordinates: [
            [
              ["a", "b"],
              [1, 0],
              [1, 1],
              ["a", "b"],
            ],
          ],
        },
        true,
      ],
      [{ type: "Point", coordinates: [0] }, true],
      [{ type: "LineString", coordinates: [[0, 0]] }, true],
      [{ type: "Circle", coordinates: [0, 0] }, true],
      [{ type: "FeatureCollection", features: "nope" }, true],
      [{ type: "FeatureCollection", features: [{ type: "Feature", geometry: { type: "Point", coordinates: [0, 0] }, properties: "x" }] }, true],
      [{ type: "FeatureCollection", features: [{ type: "Feat", geometry: null, properties: {} }] }, true],
    )
    .map(([g, invalidAsFeature]) => (b: any, api: string) => {
      const flow = FLOWS[api]!;
      const area = flow.inputs.find((i) => i.kind === "area");
      const layer = flow.inputs.find((i) => i.kind === "layer")!;
      const isCollection = (g as any).type === "FeatureCollection";
      if (area && !isCollection) b.inputs[area.name] = { area: g };
      else if (isCollection) b.inputs[layer.name] = { geojson: g };
      else {
        const geometry = invalidAsFeature ? g : { type: "Polygon", coordinates: [[[0, 0]]] };
        b.inputs[layer.name] = { geojson: { type: "FeatureCollection", features: [{ type: "Feature", geometry, properties: {} }] } };
      }
      return b;
    }),
  // more than 5,000 rows / features
  fc.constantFrom(5001, 6000).map((n) => (b: any, api: string) => {
    const flow = FLOWS[api]!;
    const table = flow.inputs.find((i) => i.kind === "table");
    if (table) b.inputs[table.name] = { rows: Array.from({ length: n }, (_, i) => ({ id: i, lon: 0, lat: 0 })) };
    else {
      const layer = flow.inputs.find((i) => i.kind === "layer")!;
      b.inputs[layer.name] = {
        geojson: {
          type: "FeatureCollection",
          features: Array.from({ length: n }, () => ({ type: "Feature", geometry: { type: "Point", coordinates: [0, 0] }, properties: {} })),
        },
      };
    }
    return b;
  }),
  // a body that is not an object at all, or inputs that are not an object
  wrongType.filter((v) => typeof v !== "object" || v === null || Array.isArray(v)).map((v) => () => v),
  wrongType.map((v) => (b: any) => ({ ...b, inputs: Array.isArray(v) || typeof v !== "object" || v === null ? v : [v] })),
];

const bodyArb = fc.tuple(fc.constantFrom(...Object.keys(VALID)), fc.array(fc.oneof(...mutations), { minLength: 1, maxLength: 3 })).map(([api, ms]) => {
  let body: any = clone(VALID[api]!);
  for (const m of ms) {
    body =
      typeof body === "object" &&
      body !== null &&
      !Array.isArray(body) &&
      typeof body.inputs === "object" &&
      body.inputs !== null &&
      !Array.isArray(body.inputs)
        ? m(body, api)
        : body;
  }
  return { api, body: JSON.stringify(body) as string | undefined, raw: false };
});

/** Random JSON values and random text with a JSON content type. */
const randomArb = fc.oneof(
  fc.tuple(fc.constantFrom(...Object.keys(VALID)), fc.jsonValue({ maxDepth: 4 })).map(([api, v]) => ({ api, body: JSON.stringify(v), raw: false })),
  fc.tuple(fc.constantFrom(...Object.keys(VALID)), fc.string({ maxLength: 200 })).map(([api, s]) => ({ api, body: s, raw: true })),
);

async function post(api: string, body: string | undefined): Promise<{ status: number; type: string; json: any }> {
  const res = await fetch(`${BASE_URL}${apiPath(api)}/runs`, { method: "POST", headers: { "x-api-key": DEMO_KEY, "content-type": "application/json" }, body });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* checked below */
  }
  return { status: res.status, type: res.headers.get("content-type") ?? "", json };
}

function isValidForFlow(api: string, body: string | undefined): boolean {
  try {
    return parseRunRequest(FLOWS[api]!, JSON.parse(body ?? "")).ok;
  } catch {
    return false;
  }
}

/** Sends `cases` with `concurrency` requests in flight; checks each answer. */
async function fire(cases: { api: string; body: string | undefined }[], concurrency = 16): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let next = 0;
  const failures: string[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < cases.length) {
        const c = cases[next++]!;
        const r = await post(c.api, c.body);
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        const ok =
          r.status >= 400 &&
          r.status < 500 &&
          r.type === "application/problem+json" &&
          r.json?.status === r.status &&
          typeof r.json?.type === "string" &&
          typeof r.json?.title === "string";
        if (!ok && failures.length < 5) failures.push(`${r.status} ${JSON.stringify(r.json)?.slice(0, 300)} for ${c.api}: ${(c.body ?? "").slice(0, 300)}`);
      }
    }),
  );
  expect(failures).toEqual([]);
  return statuses;
}

beforeAll(resetRuns);

describe("POST /runs under random and mutated bodies", () => {
  it("answers every mutated valid body with a 4xx problem, starting and counting nothing", async () => {
    for (const [api, body] of Object.entries(VALID)) expect(isValidForFlow(api, JSON.stringify(body)), api).toBe(true);
    const sampled = fc.sample(bodyArb, { numRuns: 2500, seed: 20261121 });
    // Mutations are invalid by construction; classify anyway in case two cancel out.
    const cases = sampled.filter((c) => !isValidForFlow(c.api, c.body));
    expect(cases.length).toBeGreaterThan(sampled.length * 0.99);
    const statuses = await fire(cases);
    expect([...statuses.keys()].every((s) => s >= 400 && s < 500)).toBe(true);
    expect(statuses.get(422)).toBeGreaterThan(2000);
    expect(await runCount()).toBe(0);
    expect(await demoUsage()).toEqual({ etlRuns: 0, processingMs: 0, apiRequests: 0 });
  }, 90_000);

  it("answers random JSON and random text with a 4xx problem, starting and counting nothing", async () => {
    const cases = fc.sample(randomArb, { numRuns: 1500, seed: 7 }).filter((c) => !isValidForFlow(c.api, c.body));
    expect(cases.length).toBeGreaterThan(1400);
    const statuses = await fire(cases);
    expect(statuses.get(400)).toBeGreaterThan(0);
    expect(statuses.get(422)).toBeGreaterThan(0);
    expect(await runCount()).toBe(0);
    expect(await demoUsage()).toEqual({ etlRuns: 0, processingMs: 0, apiRequests: 0 });
  }, 90_000);

  it("holds as a fast-check property with shrinking (smaller run)", async () => {
    await fc.assert(
      fc.asyncProperty(
        bodyArb.filter((c) => !isValidForFlow(c.api, c.body)),
        async (c) => {
          const r = await post(c.api, c.body);
          return r.status >= 400 && r.status < 500 && r.type === "application/problem+json";
        },
      ),
      { numRuns: 200, seed: 42 },
    );
    expect(await runCount()).toBe(0);
  }, 60_000);
});
