/**
 * waitForRunFinal (lib/runs/run-events.ts), which requests with `wait_seconds` and the worker
 * running a run (its cancel, lib/runs/execute-run.ts) wait with: woken by the `run_final`
 * notification without asking the database again, and ended by its signal when the run's work
 * is over. waitForResultFormat, which a download of a format made after the run waits with
 * (lib/runs/get-result-file.ts): woken by the `result_format` notification of that format only.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { waitForResultFormat, waitForRunFinal } from "@/lib/runs/run-events";
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

describe("waitForResultFormat", () => {
  it("wakes on its format's result_format notification, not on another format's or result's", async () => {
    const file = { runId: randomUUID(), key: "cities", format: "geoparquet" };
    const notify = (payload: string) => sql().query(`SELECT pg_notify('result_format', $1)`, [payload]);
    let asked = 0;
    let othersSent = false;
    const isSettled = async () => {
      if (++asked === 1) {
        setImmediate(async () => {
          // another format, another result, another run: none of them is this file
          await notify(`${file.runId}/cities/csv`);
          await notify(`${file.runId}/summary/geoparquet`);
          await notify(`${randomUUID()}/cities/geoparquet`);
          othersSent = true;
          await new Promise((r) => setTimeout(r, 200));
          await notify(`${file.runId}/cities/geoparquet`);
        });
      }
      return false;
    };
    const t0 = Date.now();
    await expect(waitForResultFormat(file, 60_000, isSettled, 30_000)).resolves.toBe(true);
    expect(othersSent).toBe(true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(200);
    expect(asked).toBe(1);
  });

  it("ends, not settled, when its time is up", async () => {
    const file = { runId: randomUUID(), key: "cities", format: "geoparquet" };
    let asked = 0;
    await expect(
      waitForResultFormat(
        file,
        300,
        async () => {
          asked++;
          return false;
        },
        100,
      ),
    ).resolves.toBe(false);
    expect(asked).toBeGreaterThanOrEqual(2); // first, then at least one safety re-check
  });
});
