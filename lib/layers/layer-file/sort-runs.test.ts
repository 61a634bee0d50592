import path from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FrameBuffer, RunFileReader, jsonExact, mergeRuns, type TKeyedRecord, type TRunSource } from "./sort-runs";
import { tempDir } from "./test-support";

let tmp: Awaited<ReturnType<typeof tempDir>>;
beforeEach(async () => {
  tmp = await tempDir();
});
afterEach(async () => {
  await tmp.remove();
});

async function readRun<T>(file: string, blockBytes: number): Promise<TKeyedRecord<T>[]> {
  const reader = await RunFileReader.open<T>(file, blockBytes);
  const out: TKeyedRecord<T>[] = [];
  try {
    while (reader.current) {
      out.push(reader.current);
      await reader.advance();
    }
  } finally {
    await reader.close();
  }
  return out;
}

describe("FrameBuffer and run files", () => {
  it("give back exactly what was added, sorted or in input order, also values JSON cannot hold and items larger than a read block", async () => {
    const items: unknown[] = [
      { type: "Feature", geometry: { type: "Point", coordinates: [1.5, -2.25] }, properties: { name: "Zürich – 東京 🚀", n: 1 } },
      { properties: { big: 2n ** 70n, nan: NaN, inf: -Infinity, negativeZero: -0, when: new Date(0) } },
      { properties: { list: [1, undefined, 3] } },
      { long: "x".repeat(200_000) },
      { properties: JSON.parse('{"__proto__": "own key"}') },
    ];
    const records = items.map((item, i) => ({ key: 10 - i, seq: i, item }));
    const buffer = new FrameBuffer<unknown>();
    for (const r of records) buffer.add(r.key, r.seq, r.item);
    const file = path.join(tmp.dir, "run");
    await buffer.spill(file, true);
    // sorted by key: the reverse of the input here
    expect(await readRun(file, 64)).toEqual([...records].reverse());
    const inMemory = buffer.source(false);
    const fromMemory: TKeyedRecord<unknown>[] = [];
    for (; inMemory.current; inMemory.advanceSync()) fromMemory.push(inMemory.current);
    expect(fromMemory).toEqual(records);
    const back = await readRun<Record<string, Record<string, unknown>>>(file, 1 << 20);
    expect(Object.is(back[3].item.properties.negativeZero, -0)).toBe(true);
    expect(Object.hasOwn(back[0].item.properties, "__proto__")).toBe(true);
  });

  it("use JSON only where it is exact", () => {
    expect(jsonExact({ a: [1, "x", true, null, { b: 2.5 }] })).toBe(true);
    for (const value of [1n, NaN, Infinity, -0, new Date(0), [undefined], new Map()]) expect(jsonExact({ a: value })).toBe(false);
  });
});

describe("mergeRuns", () => {
  it("equals a stable sort of the whole input, for any split into runs (property)", async () => {
    const input = fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 200 });
    const cuts = fc.array(fc.nat(200), { maxLength: 6 });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(input, cuts, fc.integer({ min: 1, max: 50 }), async (keys, cutList, batchSize) => {
        const records = keys.map((key, seq) => ({ key, seq, item: { seq } }));
        const bounds = [...new Set([0, ...cutList.filter((c) => c < records.length), records.length])].sort((a, b) => a - b);
        const sources: TRunSource<{ seq: number }>[] = [];
        for (let r = 0; r + 1 < bounds.length; r++) {
          const buffer = new FrameBuffer<{ seq: number }>();
          for (const record of records.slice(bounds[r], bounds[r + 1])) buffer.add(record.key, record.seq, record.item);
          // odd runs on disk, even runs in memory
          if (r % 2 === 1) {
            const file = path.join(tmp.dir, `run-${n++}`);
            await buffer.spill(file, true);
            sources.push(await RunFileReader.open(file, 32));
          } else sources.push(buffer.source(true));
        }
        const merged: number[] = [];
        for await (const batch of mergeRuns(sources, batchSize)) {
          expect(batch.length).toBeLessThanOrEqual(batchSize);
          merged.push(...batch.map((r) => r.seq));
        }
        await Promise.all(sources.map((s) => s.close()));
        const expected = records
          .map((r) => r)
          .sort((a, b) => a.key - b.key || a.seq - b.seq)
          .map((r) => r.seq);
        expect(merged).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });
});
