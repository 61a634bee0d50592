import { describe, expect, it } from "vitest";
import { byteChannel } from "./byte-channel";

/** Reads the channel chunk by chunk; `onChunk` sees each while the reader holds it. */
async function read(chunks: AsyncIterable<Uint8Array>, onChunk: (chunk: Uint8Array) => Promise<void> | void): Promise<void> {
  for await (const chunk of chunks) await onChunk(chunk);
}

describe("byte channel", () => {
  it("hands the writer a buffer again only after the reader has asked for the chunk after it", async () => {
    // a size no other test asks for: the pool is the process's
    const size = 10_007;
    const channel = byteChannel();
    const first = channel.alloc(size);
    first.fill(1);
    channel.push(first);
    const seen: number[] = [];
    const reading = read(channel.chunks(), async (chunk) => {
      seen.push(chunk[0]!, chunk[size - 1]!);
      if (seen.length === 2) {
        // the reader holds the first chunk: the writer gets another buffer
        const second = channel.alloc(size);
        expect(second.buffer).not.toBe(first.buffer);
        second.fill(2);
        channel.push(second);
      } else {
        // the reader moved on to the second chunk: the first one's buffer is free again
        const third = channel.alloc(size);
        expect(third.buffer).toBe(first.buffer);
        channel.close();
      }
    });
    await reading;
    // each chunk as it was written while the reader held it
    expect(seen).toEqual([1, 1, 2, 2]);
  });

  it("keeps at most 8 MiB of idle buffers, the most recently returned", async () => {
    const size = 1024 * 1024 + 3;
    const channel = byteChannel(16);
    const made = Array.from({ length: 9 }, () => channel.alloc(size));
    for (const b of made) channel.push(b);
    channel.close();
    await read(channel.chunks(), () => {});
    // seven fit in 8 MiB: the last seven returned, handed out most recent first
    const again = Array.from({ length: 8 }, () => channel.alloc(size).buffer);
    const lastSeven = made.slice(2).reverse();
    for (let i = 0; i < 7; i++) expect(again[i]).toBe(lastSeven[i]!.buffer);
    expect(made.some((b) => b.buffer === again[7])).toBe(false);
  });

  it("never hands out a chunk the writer made itself", async () => {
    const size = 10_009;
    const channel = byteChannel();
    const own = Buffer.allocUnsafeSlow(size);
    channel.push(own);
    channel.push(Buffer.alloc(1));
    channel.close();
    await read(channel.chunks(), () => {});
    expect(channel.alloc(size).buffer).not.toBe(own.buffer);
  });

  it("holds the writer back at highWater chunks and lets it go on as the reader takes them", async () => {
    const channel = byteChannel(2);
    channel.push(channel.alloc(8));
    expect(channel.pace()).toBeUndefined();
    channel.push(channel.alloc(8));
    const paced = channel.pace();
    expect(paced).toBeInstanceOf(Promise);
    let released = false;
    void (paced as Promise<void>).then(() => (released = true));
    const it = channel.chunks()[Symbol.asyncIterator]();
    await it.next();
    await Promise.resolve();
    expect(released).toBe(true);
    channel.close();
    expect((await it.next()).done).toBe(false);
    expect((await it.next()).done).toBe(true);
  });
});
