import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RESULT_LINK_TTL_SECONDS, signResultLink, verifyResultLink, type TResultLinkTarget } from "@/lib/mcp/result-link";

const TARGET: TResultLinkTarget = {
  path: { organization: "demo", environment: "production", api: "cities-in-area" },
  runId: "6f1c2a0e-8d4b-4c1e-9a57-3b2d1e0f9a11",
  key: "cities",
  format: "geojson",
};
const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

/** The address part of a link (what the route takes from its path) and its query. */
function parse(url: string) {
  const u = new URL(url);
  const m = u.pathname.match(/^\/public\/api\/([^/]+)\/([^/]+)\/([^/]+)\/runs\/([^/]+)\/results\/([^/]+)$/)!;
  return {
    address: { path: { organization: m[1]!, environment: m[2]!, api: m[3]! }, runId: decodeURIComponent(m[4]!), key: decodeURIComponent(m[5]!) },
    query: u.searchParams,
  };
}

let savedSecret: string | undefined;
beforeEach(() => {
  savedSecret = process.env.AUTH_SECRET;
  process.env.AUTH_SECRET = "result-link-test-secret-0123456789abcdef";
});
afterEach(() => {
  if (savedSecret === undefined) delete process.env.AUTH_SECRET;
  else process.env.AUTH_SECRET = savedSecret;
});

describe("signed result links", () => {
  it("are the file's public address with format, expiry and an HMAC-SHA256 over path, run, key, format and expiry", () => {
    const { url, expiresAt } = signResultLink("https://flow.example", TARGET, NOW);
    const expires = NOW / 1000 + RESULT_LINK_TTL_SECONDS;
    expect(expiresAt.getTime()).toBe(expires * 1000);
    expect(url.split("?")[0]).toBe(`https://flow.example/public/api/demo/production/cities-in-area/runs/${TARGET.runId}/results/cities`);
    const { query } = parse(url);
    expect([query.get("format"), query.get("expires")]).toEqual(["geojson", String(expires)]);
    // Computed here from the documented construction, not by the module.
    const key = createHmac("sha256", process.env.AUTH_SECRET!).update("flow-api result download links v1").digest();
    const expected = createHmac("sha256", key)
      .update(JSON.stringify(["demo", "production", "cities-in-area", TARGET.runId, "cities", "geojson", expires]))
      .digest("base64url");
    expect(query.get("signature")).toBe(expected);
  });

  it("grant exactly the file they name until they expire", () => {
    const { url, expiresAt } = signResultLink("http://127.0.0.1:3000", TARGET, NOW);
    const { address, query } = parse(url);
    expect(verifyResultLink(address, query, NOW + 1000)).toEqual({ ...TARGET, expiresAt });
    expect(verifyResultLink(address, query, expiresAt.getTime() - 1)).not.toBeNull();
    expect(verifyResultLink(address, query, expiresAt.getTime())).toBeNull();
  });

  it("are refused when any part is changed, or under another secret", () => {
    const { url } = signResultLink("http://127.0.0.1:3000", TARGET, NOW);
    const { address, query } = parse(url);
    const at = NOW + 1000;
    const withQuery = (name: string, value: string | null) => {
      const q = new URLSearchParams(query);
      if (value === null) q.delete(name);
      else q.set(name, value);
      return q;
    };
    for (const changed of [
      { ...address, runId: "6f1c2a0e-8d4b-4c1e-9a57-3b2d1e0f9a12" },
      { ...address, key: "summary" },
      { ...address, path: { ...address.path, api: "country-stats" } },
      { ...address, path: { ...address.path, environment: "staging" } },
      { ...address, path: { ...address.path, organization: "other" } },
    ]) {
      expect(verifyResultLink(changed, query, at), JSON.stringify(changed)).toBeNull();
    }
    expect(verifyResultLink(address, withQuery("format", "geoparquet"), at)).toBeNull();
    expect(verifyResultLink(address, withQuery("expires", String(Number(query.get("expires")) + 3600)), at)).toBeNull();
    expect(verifyResultLink(address, withQuery("expires", null), at)).toBeNull();
    expect(verifyResultLink(address, withQuery("expires", "1e12"), at)).toBeNull();
    expect(verifyResultLink(address, withQuery("signature", ""), at)).toBeNull();
    expect(verifyResultLink(address, withQuery("signature", "A".repeat(43)), at)).toBeNull();
    process.env.AUTH_SECRET = "another-secret-of-another-installation-000";
    expect(verifyResultLink(address, query, at)).toBeNull();
  });
});
