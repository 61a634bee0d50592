/** runFlow: order, progress, cancellation and step failures. */
import { describe, expect, it } from "vitest";
import { fs, pt, mustValidate, P } from "@/lib/steps/test-helpers";
import { runFlow } from "@/lib/engine/run-flow";
import { StepError } from "@/lib/engine/errors";
import { ResourceLimitError } from "@/lib/errors";
import { tableFromRows } from "@/lib/steps/dataset";

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
  it("fails a step that produces more than maxItems, before a multiplying step builds them", async () => {
    const rowsOf = (n: number) =>
      tableFromRows(
        ["i"],
        Array.from({ length: n }, (_, i) => ({ i })),
      );
    const union = mustValidate({
      inputs: [{ name: "t", kind: "table" }],
      steps: [
        { id: "u1", type: "union", sources: ["t", "t", "t"] },
        { id: "u2", type: "union", sources: ["u1", "u1", "u1"] },
      ],
      results: [{ key: "r", kind: "table", from: "u2" }],
    });
    // 10 -> 30 -> 90 items: at most 90 passes, 89 stops the second union before it copies
    await expect(runFlow(union, { t: rowsOf(10) }, {}, { maxItems: 90 })).resolves.toHaveLength(1);
    const err = await runFlow(union, { t: rowsOf(10) }, {}, { maxItems: 89 }).catch((e) => e);
    expect(err).toBeInstanceOf(StepError);
    expect(err.stepId).toBe("u2");
    expect(err.cause).toBeInstanceOf(ResourceLimitError);
    expect(err.cause.limit).toBe("rows 89");
    // any step's output is checked, not only the multiplying ones
    const err2 = await runFlow(flow, { c: fs([pt(0, 0), pt(1, 1), pt(2, 2)]) }, {}, { maxItems: 2 }).catch((e) => e);
    expect(err2.stepId).toBe("a");
    expect(err2.cause.limit).toBe("rows 2");
    // distance_pairs checks while it pairs: 3 places x 3 targets at one spot = 9 pairs > 4
    const pairs = mustValidate({
      inputs: [
        { name: "s", kind: "layer" },
        { name: "t", kind: "layer" },
      ],
      steps: [{ id: "p", type: "distance_pairs", source: "s", target: "t", max_km: 1 }],
      results: [{ key: "r", kind: "table", from: "p" }],
    });
    const three = fs([pt(0, 0), pt(0, 0), pt(0, 0)]);
    await expect(runFlow(pairs, { s: three, t: three }, {}, { maxItems: 9 })).resolves.toHaveLength(1);
    const err3 = await runFlow(pairs, { s: three, t: three }, {}, { maxItems: 4 }).catch((e) => e);
    expect(err3.stepId).toBe("p");
    expect(err3.cause.limit).toBe("rows 4");
    // ... and it counts the pairs before it builds a row: no target's properties were read
    let reads = 0;
    const counted = fs(
      [pt(0, 0), pt(0, 0), pt(0, 0)].map((f) => {
        const p = f.properties;
        return Object.defineProperty({ ...f }, "properties", { get: () => (reads++, p), enumerable: true });
      }),
    );
    expect((await runFlow(pairs, { s: three, t: counted }, {}, { maxItems: 4 }).catch((e) => e)).cause.limit).toBe("rows 4");
    expect(reads).toBe(0);
  });
});
