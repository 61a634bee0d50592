import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { countedChunks, withinBudget } from "./limits";

async function* chunksOf(...sizes: number[]): AsyncGenerator<Uint8Array> {
  for (const n of sizes) yield new Uint8Array(n);
}

/** The sizes passed on before the generator threw (or ended), and what it threw. */
async function run(chunks: AsyncIterable<Uint8Array>): Promise<{ sizes: number[]; error?: unknown }> {
  const sizes: number[] = [];
  try {
    for await (const c of chunks) sizes.push(c.byteLength);
    return { sizes };
  } catch (error) {
    return { sizes, error };
  }
}

describe("withinBudget", () => {
  it("passes the chunks on while the budget lasts, spending it, and throws the caller's error on the chunk that passes it", async () => {
    const budget = { bytesLeft: 10 };
    expect(await run(withinBudget(chunksOf(4, 6), budget, () => new Error("over")))).toEqual({ sizes: [4, 6] });
    expect(budget.bytesLeft).toBe(0);

    const shared = { bytesLeft: 10 };
    await run(withinBudget(chunksOf(7), shared, () => new Error("first")));
    const second = await run(withinBudget(chunksOf(2, 2, 5), shared, () => new Error(`over by ${-shared.bytesLeft}`)));
    expect(second.sizes).toEqual([2]);
    expect((second.error as Error).message).toBe("over by 1");
  });
});

describe("countedChunks", () => {
  it("slices chunks to at most 1 MiB, names the bytes seen when it stops, and refuses an empty stream", async () => {
    const mib = 1024 * 1024;
    expect((await run(countedChunks(chunksOf(2 * mib + 1), 3 * mib))).sizes).toEqual([mib, mib, 1]);

    const over = await run(countedChunks(chunksOf(1024, 1024), 1536));
    expect(over.sizes).toEqual([1024]);
    expect(over.error).toBeInstanceOf(AppError);
    expect((over.error as AppError).code).toBe("payload_too_large");
    expect((over.error as AppError).message).toBe("A layer file may be at most 1.5 KiB; this one is larger (stopped after 2 KiB).");

    const empty = await run(countedChunks(chunksOf(), 10));
    expect((empty.error as AppError).code).toBe("validation_failed");
  });
});
