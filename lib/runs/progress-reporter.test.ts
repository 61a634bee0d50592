import { describe, expect, it } from "vitest";
import { progressReporter } from "./progress-reporter";

/** A write that records its calls and stays in flight until `release()`. */
function slowWrites() {
  const calls: [number, number][] = [];
  const pending: (() => void)[] = [];
  const write = (done: number, total: number) => {
    calls.push([done, total]);
    return new Promise<void>((resolve) => pending.push(resolve));
  };
  const release = async () => {
    pending.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { calls, write, release };
}

describe("progressReporter", () => {
  it("writes the first report at once and, of those that arrive meanwhile, only the latest", async () => {
    const w = slowWrites();
    const p = progressReporter(w.write);
    p.report(1, 4);
    p.report(2, 4);
    p.report(3, 4);
    expect(w.calls).toEqual([[1, 4]]);
    await w.release();
    expect(w.calls).toEqual([
      [1, 4],
      [3, 4],
    ]);
    await w.release();
    p.report(4, 4);
    expect(w.calls.at(-1)).toEqual([4, 4]);
    await w.release();
    expect(w.calls).toHaveLength(3);
  });

  it("stop() drops the report not written yet and waits for the one in flight", async () => {
    const w = slowWrites();
    const p = progressReporter(w.write);
    p.report(1, 3);
    p.report(2, 3);
    let stopped = false;
    const stopping = p.stop().then(() => (stopped = true));
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    await w.release();
    await stopping;
    expect(w.calls).toEqual([[1, 3]]);
  });

  it("goes on after a failed write", async () => {
    const calls: number[] = [];
    const p = progressReporter(async (done) => {
      calls.push(done);
      if (done === 1) throw new Error("database unreachable");
    });
    p.report(1, 2);
    p.report(2, 2);
    await new Promise((r) => setImmediate(r));
    await p.stop();
    expect(calls).toEqual([1, 2]);
  });
});
