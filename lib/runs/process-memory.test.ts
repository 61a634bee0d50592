/**
 * Tests of the run-time memory controls of lib/runs/process-memory.ts, in a process of their own
 * (test-fixtures/heap-probe.ts) started like a run process: V8 flags set while it runs apply to
 * the whole process, and the semi-space limit only at start.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bundleEntry } from "@/lib/runs/bundle-entry";

const PROBE = path.join(import.meta.dirname, "test-fixtures/heap-probe.ts");

function probe(): Record<string, number> {
  const entry = bundleEntry(PROBE, "heap-probe");
  const out = execFileSync(process.execPath, [...entry.execArgv, "--expose-gc", "--max-semi-space-size=32", entry.script], { encoding: "utf8" });
  return JSON.parse(out) as Record<string, number>;
}

describe("run-time memory controls", () => {
  const r = probe();

  it("keepHeapTight(true) keeps a trimmed young generation small while an encoder churns, and false lets it grow again", () => {
    expect(r.grown).toBeGreaterThanOrEqual(32); // V8 grows it toward 2 × 32 MB on its own
    // V8 still sizes it by its own heuristics (8.5 MB seen on a loaded machine): a quarter at most
    expect(r.tight).toBeLessThanOrEqual(r.grown / 4);
    expect(r.free).toBeGreaterThanOrEqual(32);
  });

  it("collectRelayedChunks frees dropped chunk buffers at once", () => {
    expect(r.held).toBeGreaterThanOrEqual(8);
    expect(r.dropped).toBeGreaterThanOrEqual(8); // unreachable, but not collected yet
    expect(r.collected).toBeLessThan(r.held - 7);
  });
});
