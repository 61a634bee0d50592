import { describe, expect, it } from "vitest";
import { layeredLayout } from "./layout";

const opts = { columnWidth: 100, rowHeight: 10 };

describe("layeredLayout", () => {
  it("puts each node one column right of the deepest node it reads, so every edge points right", () => {
    const edges = [
      { source: "a", target: "c" },
      { source: "b", target: "c" },
      { source: "c", target: "d" },
      { source: "a", target: "d" },
      { source: "d", target: "r" },
    ];
    const pos = layeredLayout(["a", "b", "c", "d", "r"], edges, opts);
    expect([...pos].map(([id, p]) => [id, p.x])).toEqual([
      ["a", 0],
      ["b", 0],
      ["c", 100],
      ["d", 200],
      ["r", 300],
    ]);
    for (const e of edges) expect(pos.get(e.source)!.x).toBeLessThan(pos.get(e.target)!.x);
  });

  it("never puts two nodes at one place, also for 30 steps in a chain with branches", () => {
    const ids = Array.from({ length: 34 }, (_, i) => `n${i}`);
    const edges = ids.slice(1).map((id, i) => ({ source: `n${Math.floor(i / 2)}`, target: id }));
    const pos = layeredLayout(ids, edges, opts);
    const places = new Set([...pos.values()].map((p) => `${p.x},${p.y}`));
    expect(places.size).toBe(ids.length);
    for (const e of edges) expect(pos.get(e.source)!.x).toBeLessThan(pos.get(e.target)!.x);
  });

  it("orders a column by the rows of the nodes read, and centres shorter columns", () => {
    // x reads b (row 1), y reads a (row 0): y above x though x comes first.
    const pos = layeredLayout(
      ["a", "b", "x", "y"],
      [
        { source: "b", target: "x" },
        { source: "a", target: "y" },
      ],
      opts,
    );
    expect(pos.get("y")!.y).toBeLessThan(pos.get("x")!.y);
    const single = layeredLayout(
      ["a", "b", "c"],
      [
        { source: "a", target: "c" },
        { source: "b", target: "c" },
      ],
      opts,
    );
    expect(single.get("c")!.y).toBe(5);
  });

  it("ends on a cycle (a faulty document) and ignores edges to unknown nodes", () => {
    const pos = layeredLayout(
      ["a", "b", "c"],
      [
        { source: "a", target: "b" },
        { source: "b", target: "a" },
        { source: "b", target: "c" },
        { source: "zz", target: "c" },
        { source: "c", target: "c" },
      ],
      opts,
    );
    expect(pos.size).toBe(3);
    expect(pos.get("c")!.x).toBeGreaterThan(pos.get("b")!.x);
  });

  it("lays the layers out as rows with direction down, every edge pointing down, rows centred on the widest", () => {
    const edges = [
      { source: "a", target: "c" },
      { source: "b", target: "c" },
      { source: "c", target: "r" },
    ];
    const pos = layeredLayout(["a", "b", "c", "r"], edges, { ...opts, direction: "down" });
    expect(Object.fromEntries(pos)).toEqual({ a: { x: 0, y: 0 }, b: { x: 100, y: 0 }, c: { x: 50, y: 10 }, r: { x: 50, y: 20 } });
    for (const e of edges) expect(pos.get(e.source)!.y).toBeLessThan(pos.get(e.target)!.y);
  });
});
