import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_RATE_LIMIT_PER_MINUTE } from "@/lib/demo/plan";

const readme = readFileSync(path.resolve(import.meta.dirname, "../../README.md"), "utf8");

describe("the demo plan's rate limit", () => {
  it("is the quota the README shows and states, so the 429 it describes can be tried", () => {
    expect(readme).toContain(`RateLimit-Policy: "per-key";q=${DEMO_RATE_LIMIT_PER_MINUTE};w=60`);
    const stated = /The demo plan `pro` allows \*\*([\d,]+) calls a minute\*\*/.exec(readme)?.[1];
    expect(Number(stated?.replace(/,/g, ""))).toBe(DEMO_RATE_LIMIT_PER_MINUTE);
    // The README's loop makes one call more than the quota.
    const loop = /for i in \$\(seq (\d+)\)/.exec(readme)?.[1];
    expect(Number(loop)).toBe(DEMO_RATE_LIMIT_PER_MINUTE + 1);
  });
});
