/**
 * HTTP details beyond the run contract: 405 problems with `Allow` (RFC 9110), problem 404s
 * for unknown paths under /public, CORS per environment (none by default, preflight and
 * exposed headers for allowed origins), and docs examples that run as pasted.
 */
import { afterAll, describe, expect, it } from "vitest";
import { apiPath, http, sql, waitFor } from "./helpers";
import { expectProblem } from "./contract-helpers";

const RUNS = `${apiPath("cities-in-area")}/runs`;
const A_RUN = `${RUNS}/00000000-0000-4000-8000-000000000000`;

describe("405 Method Not Allowed", () => {
  it("answers a problem with Allow for every method a resource does not serve", async () => {
    for (const [method, path, allow] of [
      ["PUT", RUNS, "GET, POST, HEAD, OPTIONS"],
      ["DELETE", RUNS, "GET, POST, HEAD, OPTIONS"],
      ["POST", A_RUN, "GET, HEAD, OPTIONS"],
      ["PATCH", A_RUN, "GET, HEAD, OPTIONS"],
      ["GET", `${A_RUN}/cancel`, "POST, OPTIONS"],
      ["POST", `${A_RUN}/results/cities`, "GET, HEAD, OPTIONS"],
      ["POST", `${apiPath("cities-in-area")}/openapi.json`, "GET, HEAD, OPTIONS"],
    ] as const) {
      const r = await http(method, path, method === "POST" || method === "PUT" || method === "PATCH" ? { body: {} } : {});
      expectProblem(r, 405, "method_not_allowed");
      expect(r.headers.get("allow"), `${method} ${path}`).toBe(allow);
    }
  });

  it("is listed in the OpenAPI document", async () => {
    const doc = (await http("GET", `${apiPath("cities-in-area")}/openapi.json`, { key: null })).body;
    expect(doc.components.responses.MethodNotAllowed["x-error-codes"]).toEqual(["method_not_allowed"]);
    // 422 of the list and download endpoints speaks of their query, not of Idempotency-Key.
    const list = doc.paths["/runs"].get.responses["422"].$ref;
    expect(list).toBe("#/components/responses/InvalidQuery");
    expect(doc.components.responses.InvalidQuery.description).not.toMatch(/Idempotency/);
    expect(doc.paths["/runs/{run_id}/results/cities"].get.responses["422"].$ref).toBe("#/components/responses/InvalidQuery");
  });
});

describe("unknown paths under /public", () => {
  it("answer problem-details 404s, not HTML", async () => {
    for (const path of ["/public", "/public/nothing-here", `${A_RUN}/results/cities/extra`, "/public/api/demo"]) {
      for (const method of ["GET", "POST"] as const) {
        const r = await http(method, path, { key: null, ...(method === "POST" ? { body: {} } : {}) });
        expect(`${method} ${path}: ${r.headers.get("content-type")}`).toBe(`${method} ${path}: application/problem+json`);
        expectProblem(r, 404, "not_found");
        expect(r.text).not.toMatch(/<html/i);
      }
    }
  });
});

describe("CORS", () => {
  const ORIGIN = "https://maps.example.org";
  const setOrigins = (origins: string[]) => sql().query(`UPDATE environment SET "corsOrigins" = $1 WHERE slug = 'production'`, [origins]);
  afterAll(() => setOrigins([]));
  const preflightOf = (origin: string) =>
    http("OPTIONS", RUNS, {
      key: null,
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "x-api-key, content-type" },
    });

  it("allows no browser origin by default", async () => {
    const pre = await preflightOf(ORIGIN);
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const r = await http("GET", RUNS, { headers: { origin: ORIGIN } });
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers the preflight and exposes the headers a client needs for an allowed origin, within moments of the change", async () => {
    await setOrigins([ORIGIN]);
    await waitFor("the origin to be allowed", async () => (await preflightOf(ORIGIN)).headers.get("access-control-allow-origin") === ORIGIN, 2_000);
    const pre = await preflightOf(ORIGIN);
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(pre.headers.get("access-control-allow-methods")).toBe("GET, POST");
    expect(pre.headers.get("access-control-allow-headers")!.toLowerCase()).toContain("x-api-key");
    expect(pre.headers.get("vary")).toContain("Origin");

    const body = {
      inputs: {
        cities: { layer_id: "world-cities" },
        area: {
          area: {
            type: "Polygon",
            coordinates: [
              [
                [8.4, 47.3],
                [8.7, 47.3],
                [8.7, 47.45],
                [8.4, 47.3],
              ],
            ],
          },
        },
      },
    };
    const post = await http("POST", RUNS, { body, headers: { origin: ORIGIN } });
    expect(post.status, post.text).toBe(202);
    expect(post.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(post.headers.get("access-control-expose-headers")).toContain("Location");
    // Errors are readable by the page too.
    const bad = await http("POST", RUNS, { body: {}, headers: { origin: ORIGIN } });
    expect(bad.status).toBe(422);
    expect(bad.headers.get("access-control-allow-origin")).toBe(ORIGIN);

    const other = await preflightOf("https://elsewhere.example");
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    // The change reaches the web process through the auth_changed notification, which
    // arrives a few milliseconds after the commit (the same path as a revoked key).
    await setOrigins([]);
    await waitFor("the origin to be dropped", async () => (await preflightOf(ORIGIN)).headers.get("access-control-allow-origin") === null, 2_000);
  });
});

describe("the docs page", () => {
  it("lists the layers the environment can read and has examples that run as pasted", async () => {
    const { rows } = await sql().query(
      // The demo APIs' layer_ids resolve in the demo workspace: its layers the demo production may read.
      `SELECT l.id FROM environment_layer el JOIN layer l ON l."workspaceId" = el."workspaceId" AND l.id = el."layerId"
       JOIN environment e ON e.id = el."environmentId" JOIN organization o ON o.id = e."organizationId"
       JOIN workspace w ON w.id = l."workspaceId" WHERE o.slug = 'demo' AND e.slug = 'production' AND w.slug = 'demo'`,
    );
    for (const api of ["cities-in-area", "country-stats", "nearby-cities"]) {
      const page = await http("GET", `/docs/demo/production/${api}`, { key: null });
      expect(page.status).toBe(200);
      for (const r of rows) expect(page.text).toContain(r.id);
      expect(page.text).not.toContain("&lt;layer id&gt;");
      const pasted = /-d &#x27;(.*?)&#x27;/.exec(page.text)?.[1] ?? /-d '(.*?)'/.exec(page.text)?.[1];
      expect(pasted, `the curl example of ${api}`).toBeDefined();
      const body = JSON.parse(
        pasted!
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, "&")
          .replace(/&lt;/g, "<")
          .replace(/&gt;/g, ">"),
      );
      const r = await http("POST", `${apiPath(api)}/runs`, { body });
      expect([200, 202], `${api}: ${r.text}`).toContain(r.status);
    }
  });
});
