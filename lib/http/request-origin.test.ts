import { describe, expect, it } from "vitest";
import { originCacheHeaders, publicOrigin, requestOrigin } from "./request-origin";

const forged = new Headers({ host: "api.example.com", "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" });

describe("publicOrigin", () => {
  it("takes PUBLIC_BASE_URL when set, whatever the request's headers say", () => {
    expect(publicOrigin(forged, "http://127.0.0.1:3000", "https://flows.example.org/")).toEqual({ origin: "https://flows.example.org", fromRequest: false });
  });

  it("otherwise follows the request's headers, and says so", () => {
    expect(publicOrigin(forged, "http://127.0.0.1:3000", undefined)).toEqual({ origin: "https://evil.example", fromRequest: true });
    expect(requestOrigin(new Headers({ host: "bad host!" }), "http://127.0.0.1:3000")).toBe("http://127.0.0.1:3000");
  });
});

describe("originCacheHeaders", () => {
  it("lets shared caches keep a document only when its origin is configured", () => {
    expect(originCacheHeaders({ origin: "https://flows.example.org", fromRequest: false }, 60)).toEqual({ "cache-control": "public, max-age=60" });
  });

  it("keeps a document whose origin came from the request out of shared caches, and varies on every header it came from", () => {
    const h = originCacheHeaders(publicOrigin(forged, "http://127.0.0.1:3000", undefined), 60);
    const directives = h["cache-control"]!.split(",").map((d) => d.trim());
    expect(directives).toContain("private");
    expect(directives).not.toContain("public");
    expect(directives.some((d) => d.startsWith("s-maxage"))).toBe(false);
    // every header requestOrigin reads, by the names HTTP gives them
    const vary = h.vary!.split(",").map((v) => v.trim().toLowerCase());
    expect(vary.sort()).toEqual(["host", "x-forwarded-host", "x-forwarded-proto"]);
  });
});
