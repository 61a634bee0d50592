/**
 * waitForRunFinal (lib/runs/run-events.ts), which requests with `wait_seconds` and the worker
 * running a run (its cancel, lib/runs/execute-run.ts) wait with: woken by the `run_final`
 * notification without asking the database again, and ended by its signal when the run's work
 * is over.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { waitForRunFinal } from "@/lib/runs/run-events";
import { sql } from "./helpers";

describe("waitForRunFinal", () => {
  it("wakes on the run_final notification, asking the database only once, before it", async () => {
    const runId = randomUUID();
    let asked = 0;
    const isFinal = async () => {
      if (++asked === 1) setImmediate(() => void sql().query(`SELECT pg_notify('run_final', $1)`, [runId]));
      return false;
    };
    const t0 = Date.now();
    await expect(waitForRunFinal(runId, 60_000, isFinal)).resolves.toBe(true);
    expect(asked).toBe(1);
    expect(Date.now() - t0).toBeLessThan(4_000); // before the 5 s safety re-check
  });

  it("ends, not final, as soon as its signal aborts", async () => {
    const stop = new AbortController();
    const t0 = Date.now();
    const waiting = waitForRunFinal(randomUUID(), 60_000, async () => false, stop.signal);
    setTimeout(() => stop.abort(), 100);
    await expect(waiting).resolves.toBe(false);
    expect(Date.now() - t0).toBeLessThan(4_000);
  });
});
