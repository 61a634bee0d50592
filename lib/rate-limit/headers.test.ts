import { describe, expect, it } from "vitest";
import { isAllowed, rateLimitHeaders } from "./headers";

describe("rateLimitHeaders", () => {
  it("advertises quota, window, remaining and reset as structured fields", () => {
    const s = { limit: 600, windowSeconds: 60, used: 1, resetSeconds: 36.2 };
    expect(isAllowed(s)).toBe(true);
    expect(rateLimitHeaders(s)).toEqual({ "ratelimit-policy": '"per-key";q=600;w=60', ratelimit: '"per-key";r=599;t=37' });
  });

  it("adds Retry-After and never a negative remaining once over the quota", () => {
    const s = { limit: 3, windowSeconds: 60, used: 5, resetSeconds: 0.2 };
    expect(isAllowed(s)).toBe(false);
    expect(rateLimitHeaders(s)).toEqual({ "ratelimit-policy": '"per-key";q=3;w=60', ratelimit: '"per-key";r=0;t=1', "retry-after": "1" });
  });

  it("allows exactly the quota", () => {
    expect(isAllowed({ limit: 3, windowSeconds: 60, used: 3, resetSeconds: 10 })).toBe(true);
  });
});
