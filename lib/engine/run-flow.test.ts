/** runFlow: order, progress, cancellation and step failures. */
import { describe, expect, it } from "vitest";
import { fs, pt, mustValidate, P } from "@/lib/steps/test-helpers";
import { runFlow } from "@/lib/engine/run-flow";
import { StepError } from "@/lib/engine/errors";

describe("runFlow orchestration", () => {
  const flow = mustValidate({
    inputs: [{ name: "c", kind: "layer" }],
    steps: [
      { id: "b", type: "rank", source: "a" },
      { id: "a", type: "filter", source: "c", where: true },
    ],
    results: [{ key: "r", kind: "layer", from: "b" }],
  });
  it("runs in topological order and reports progress", async () => {
    const progress: [number, number][] = [];
    const [r] = await runFlow(flow, { c: fs([pt(0, 0)]) }, {}, { onProgress: (d, t) => progress.push([d, t]) });
    expect(P(r.data)).toEqual([{ rank: 1 }]);
    expect(progress).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });
  it("stops when aborted, before and during a step", async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(runFlow(flow, { c: fs([pt(0, 0)]) }, {}, { signal: ac.signal })).rejects.toMatchObject({ name: "AbortError" });
    const many = fs(Array.from({ length: 300_000 }, (_, i) => pt(0, 0, { i })));
    const ac2 = new AbortController();
    const run = runFlow(flow, { c: many }, {}, { signal: ac2.signal, onProgress: () => ac2.abort() });
    await expect(run).rejects.toMatchObject({ name: "AbortError" });
  });
  it("wraps step failures in StepError naming the step", async () => {
    const f = mustValidate({
      inputs: [{ name: "c", kind: "layer" }],
      parameters: [{ name: "n", type: "integer" }],
      steps: [{ id: "lim", type: "limit", source: "c", n: { param: "n" } }],
      results: [{ key: "r", kind: "layer", from: "lim" }],
    });
    const err = await runFlow(f, { c: fs([]) }, { n: -3 }).catch((e) => e);
    expect(err).toBeInstanceOf(StepError);
    expect(err.stepId).toBe("lim");
    await expect(runFlow(f, {}, { n: 1 })).rejects.toThrow(/required/);
  });
});
