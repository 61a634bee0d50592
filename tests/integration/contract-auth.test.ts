/**
 * Contract: who may call. 401 (missing, malformed, unknown, revoked, expired key, key of
 * another environment), 403 (no grant), 404 (unknown or unpublished API), the body checks
 * 415 / 413 / 400, and rate limiting (429 with RateLimit headers). Refused calls start no
 * run and count nothing.
 */
import { request as httpRequest } from "node:http";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiPath, BASE_URL, DEMO_KEY, demoUsage, http, resetRuns, runCount } from "./helpers";
import {
  awayFromMinuteEnd,
  CITIES_BODY,
  createConsumer,
  createEnvironment,
  createFlowApi,
  createWorkspace,
  expectProblem,
  TINY_FLOW,
  workspaceUsage,
  ZURICH_AREA as AREA,
} from "./contract-helpers";

const CITIES = apiPath("cities-in-area");
const BODY = { inputs: { ...CITIES_BODY.inputs, area: { area: AREA } } };
const RUN = "00000000-0000-4000-8000-000000000000";

/** Every public endpoint of an API base, with a method and body. */
function endpoints(base: string): [string, string, unknown?][] {
  return [
    ["POST", `${base}/runs`, BODY],
    ["GET", `${base}/runs`],
    ["GET", `${base}/runs/${RUN}`],
    ["POST", `${base}/runs/${RUN}/cancel`],
    ["GET", `${base}/runs/${RUN}/results/cities`],
  ];
}

beforeEach(resetRuns);

/**
 * POST over its own connection (no keep-alive pool) that sends `body` and then neither ends
 * nor sends more: the server answers 413 before the end of the body and closes. Sending only
 * what the server reads leaves nothing unread in its socket, so its close cannot reset the
 * connection and lose the answer (RFC 9110 15.5.14); the connection is dropped after the answer.
 */
function rawPost(path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; contentType: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      BASE_URL + path,
      { method: "POST", agent: false, headers: { "x-api-key": DEMO_KEY, "content-type": "application/json", ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"]), text: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.flushHeaders();
    const step = 1024 * 1024;
    for (let offset = 0; offset < body.byteLength; offset += step) req.write(body.subarray(offset, offset + step));
  });
}

describe("401 for keys that are missing or not valid here", () => {
  let revoked: string, expired: string, otherEnv: string;
  beforeAll(async () => {
    revoked = (await createConsumer({ grants: ["cities-in-area"], revokedAt: new Date(Date.now() - 1000) })).secret;
    expired = (await createConsumer({ grants: ["cities-in-area"], expiresAt: new Date(Date.now() - 1000) })).secret;
    const staging = await createEnvironment();
    otherEnv = (await createConsumer({ environmentId: staging.id })).secret;
  });

  const cases: [string, () => string | null][] = [
    ["missing", () => null],
    ["malformed", () => "not-a-key"],
    ["unknown", () => "fapi_" + "A".repeat(32)],
    ["revoked", () => revoked],
    ["expired", () => expired],
    ["of another environment", () => otherEnv],
  ];
  for (const [name, key] of cases) {
    it(`answers 401 on every endpoint for a ${name} key`, async () => {
      for (const [method, path, body] of endpoints(CITIES)) {
        const r = await http(method, path, { key: key(), body });
        expectProblem(r, 401, "unauthorized");
        expect(r.headers.get("www-authenticate")).toBe('ApiKey header="X-Api-Key"');
        expect(r.headers.get("ratelimit")).toBeNull(); // no quota is spent before authentication
      }
      expect(await runCount()).toBe(0);
      expect(await demoUsage()).toEqual({ etlRuns: 0, processingMs: 0, apiRequests: 0 });
    });
  }

  it("gives all invalid keys the same answer", async () => {
    const bodies = await Promise.all(
      [() => "fapi_" + "A".repeat(32), () => revoked, () => expired, () => otherEnv].map(async (k) => {
        const { instance: _i, ...rest } = (await http("GET", `${CITIES}/runs`, { key: k() })).body;
        return rest;
      }),
    );
    for (const b of bodies) expect(b).toEqual(bodies[0]);
  });

  it("titles a key door's 401 for the key, and a signed-out designer's for signing in, without an API-key challenge", async () => {
    expect(expectProblem(await http("GET", `${CITIES}/runs`, { key: null }), 401, "unauthorized").title).toBe("Missing or invalid API key");
    for (const path of ["/api/me", "/api/design/demo/demo/layers", "/api/design/demo/demo/runs/00000000-0000-4000-8000-000000000000"]) {
      const r = await http("GET", path, { key: null });
      expect(expectProblem(r, 401, "unauthorized").title, path).toBe("Sign-in required");
      expect(r.headers.get("www-authenticate"), path).toBeNull();
    }
  });
});

describe("403 and 404", () => {
  it("answers 403 on every endpoint for a consumer without a grant, and counts nothing", async () => {
    const { secret } = await createConsumer({ grants: [] });
    for (const [method, path, body] of endpoints(CITIES)) expectProblem(await http(method, path, { key: secret, body }), 403, "forbidden");
    expect(await runCount()).toBe(0);
    expect(await demoUsage()).toEqual({ etlRuns: 0, processingMs: 0, apiRequests: 0 });
  });

  it("answers 404 for an unknown API and for a draft that is not published", async () => {
    const draft = await createFlowApi({ definition: TINY_FLOW, publish: false });
    for (const base of [apiPath("no-such-api"), apiPath(draft), apiPath("Bad_Slug!"), "/public/api/no-org/production/cities-in-area"]) {
      for (const [method, path, body] of endpoints(base)) {
        const r = await http(method, path, { body });
        if (base.includes("no-org"))
          expectProblem(r, 401); // the key belongs to another organization
        else expectProblem(r, 404, "not_found");
      }
    }
    expect(await demoUsage()).toEqual({ etlRuns: 0, processingMs: 0, apiRequests: 0 });
  });
});

describe("body checks of POST /runs", () => {
  it("answers 415 for a body that is not JSON by Content-Type", async () => {
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const r = await http("POST", `${CITIES}/runs`, { rawBody: JSON.stringify(BODY), headers: { "content-type": type } });
      expectProblem(r, 415, "unsupported_media_type");
    }
    expectProblem(await http("POST", `${CITIES}/runs`, { rawBody: JSON.stringify(BODY) }), 415);
    // application/json with parameters and +json types are JSON
    const ok = await http("POST", `${CITIES}/runs`, { rawBody: JSON.stringify(BODY), headers: { "content-type": "application/json; charset=utf-8" } });
    expect(ok.status, ok.text).toBe(202);
  });

  it("answers 413 for a body over MAX_BODY_BYTES (default 20 MiB), declared or streamed", async () => {
    const limit = 20 * 1024 * 1024;
    const big = Buffer.from(JSON.stringify({ ...BODY, padding: "x".repeat(limit) }));
    // Declared: the header alone is refused, so no byte of the body is sent.
    const declared = await rawPost(`${CITIES}/runs`, { "content-length": String(big.byteLength) }, Buffer.alloc(0));
    expect(declared.status).toBe(413);
    expect(declared.contentType).toBe("application/problem+json");
    expect(JSON.parse(declared.text)).toMatchObject({ status: 413, code: "payload_too_large" });
    // Streamed without Content-Length (chunked): counted while reading; one byte over the limit is sent.
    const streamed = await rawPost(`${CITIES}/runs`, { "transfer-encoding": "chunked" }, big.subarray(0, limit + 1));
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.text)).toMatchObject({ status: 413, code: "payload_too_large" });
    expect(await runCount()).toBe(0);
    expect(await demoUsage()).toEqual({ etlRuns: 0, processingMs: 0, apiRequests: 0 });
  });

  it("answers 400 for malformed or empty JSON", async () => {
    for (const raw of ["{", "{'inputs': 1}", "", "   ", "\u0000", "[1,]"]) {
      expectProblem(await http("POST", `${CITIES}/runs`, { rawBody: raw, headers: { "content-type": "application/json" } }), 400, "bad_request");
    }
    expect(await runCount()).toBe(0);
    expect(await demoUsage()).toEqual({ etlRuns: 0, processingMs: 0, apiRequests: 0 });
  });
});

describe("rate limiting per key", () => {
  it("sends RateLimit-Policy and RateLimit on answers to authenticated calls", async () => {
    const r = await http("GET", `${CITIES}/runs`);
    expect(r.status).toBe(200);
    expect(r.headers.get("ratelimit-policy")).toMatch(/^"per-key";q=\d+;w=60$/);
    expect(r.headers.get("ratelimit")).toMatch(/^"per-key";r=\d+;t=\d+$/);
    const p = await http("POST", `${CITIES}/runs`, { body: { inputs: {} } });
    expect(p.status).toBe(422);
    expect(p.headers.get("ratelimit")).toMatch(/^"per-key";r=\d+;t=\d+$/);
  });

  it("answers 429 with Retry-After over the plan's quota, counts nothing for refused calls, and is per key", async () => {
    const { workspaceId } = await createWorkspace(3);
    const api = await createFlowApi({ definition: TINY_FLOW, workspaceId });
    const a = await createConsumer({ grants: [api] });
    const b = await createConsumer({ grants: [api] });
    await awayFromMinuteEnd();
    const base = apiPath(api);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await http("GET", `${base}/runs`, { key: a.secret });
      expect(r.status, r.text).toBe(200);
      expect(r.headers.get("ratelimit-policy")).toBe('"per-key";q=3;w=60');
      remaining.push(/r=(\d+)/.exec(r.headers.get("ratelimit") ?? "")![1]!);
    }
    expect(remaining).toEqual(["2", "1", "0"]);
    for (const [method, path, body] of endpoints(base)) {
      const r = await http(method, path, { key: a.secret, body });
      expectProblem(r, 429, "rate_limited");
      const retry = Number(r.headers.get("retry-after"));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect(r.headers.get("ratelimit")).toBe(`"per-key";r=0;t=${retry}`);
    }
    // Refused calls count nothing: 3 requests, no run.
    expect(await workspaceUsage(workspaceId)).toEqual({ etlRuns: 0, processingMs: 0, apiRequests: 3 });
    // Another key of the same plan has its own quota.
    expect((await http("GET", `${base}/runs`, { key: b.secret })).status).toBe(200);
  });

  it("counts concurrent calls exactly (one atomic counter shared by all web processes)", async () => {
    const { workspaceId } = await createWorkspace(10);
    const api = await createFlowApi({ definition: TINY_FLOW, workspaceId });
    const a = await createConsumer({ grants: [api] });
    await awayFromMinuteEnd();
    const answers = await Promise.all(Array.from({ length: 25 }, () => http("GET", `${apiPath(api)}/runs`, { key: a.secret })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(10);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(15);
    expect((await workspaceUsage(workspaceId)).apiRequests).toBe(10);
  });
});
