import { describe, expect, it } from "vitest";
import { createRowGroupCache } from "./row-group-cache";

describe("createRowGroupCache", () => {
  it("evicts the least recently used entries once the byte bound is passed", () => {
    const cache = createRowGroupCache(100);
    cache.set("a", [1], 40);
    cache.set("b", [2], 40);
    expect(cache.get("a")).toEqual([1]); // a is now more recent than b
    cache.set("c", [3], 40);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toEqual([1]);
    expect(cache.get("c")).toEqual([3]);
    expect(cache.bytes).toBe(80);
    expect(cache.size).toBe(2);
  });

  it("replaces an entry under the same key and never keeps an entry larger than the bound", () => {
    const cache = createRowGroupCache(100);
    cache.set("a", [1], 30);
    cache.set("a", [1, 1], 50);
    expect(cache.bytes).toBe(50);
    cache.set("huge", [0], 101);
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.get("a")).toEqual([1, 1]);
    expect(cache.bytes).toBe(50);
  });

  it("clears everything", () => {
    const cache = createRowGroupCache(1_000);
    for (let i = 0; i < 10; i++) cache.set(String(i), [i], 10);
    cache.clear();
    expect([cache.size, cache.bytes]).toEqual([0, 0]);
    expect(cache.get("3")).toBeUndefined();
  });
});
