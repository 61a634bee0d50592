/**
 * A bounded channel from a writer that pushes byte chunks (the result writers' `TByteSink` and
 * `TPace`, lib/formats/byte-chunks.ts) to a reader that pulls them (`TBlobStore.put`'s
 * `AsyncIterable<Uint8Array>`, lib/blobs). The writer is held back at `pace()` while
 * `highWater` chunks (about 1 MiB each) wait, so neither side holds a whole file.
 *
 * The writer may also take the buffers it fills from the channel (`alloc`; the reader lends
 * them, as in a WHATWG stream's "bring your own buffer" read): a chunk cut from one comes back
 * once the reader asks for the next chunk, into a pool the process's channels share (at most
 * `SPARE_BYTES`, the least recently returned dropped first), and `alloc` hands it out again.
 * So a reader must be done with a chunk when it asks for the next one, as `TBlobStore.put` is
 * (lib/blobs/blob-store.ts). Why (bench "data", the 1-degree `cities-in-area` row on the 10M
 * layer): a run's text files took about 4 MiB of new ArrayBuffers, and V8 started a major
 * collection of the run process every second run (as many more bytes of ordinary objects a
 * run did not); a run that met one spent 28-37 ms on its files instead of 13-16. With the
 * buffers recycled, one comes every fourth or fifth run, and the row's median went from 41-50
 * ms to 37 ms.
 *
 * Ending: `close()` after the last chunk, or `fail(err)`, which the reader then throws (so a
 * failed encoding leaves no object in the store). A reader that stops early (the store failed)
 * must call `abandon(err)`: the writer's next `pace()` or push throws it instead of waiting.
 */

/** Bytes of idle buffers the pool keeps for `alloc` (eight text chunks). */
const SPARE_BYTES = 8 * 1024 * 1024;
/** Buffers `alloc` made, and the idle ones among them (the most recently returned last). */
const lendable = new WeakSet<ArrayBufferLike>();
const spare: ArrayBuffer[] = [];
let spareBytes = 0;

/** A buffer of `size` bytes: an idle one of that size from the pool, else a new one. */
function alloc(size: number): Buffer {
  const i = spare.findLastIndex((b) => b.byteLength === size);
  if (i >= 0) {
    const [buffer] = spare.splice(i, 1);
    spareBytes -= size;
    return Buffer.from(buffer!, 0, size);
  }
  const made = Buffer.allocUnsafeSlow(size);
  lendable.add(made.buffer);
  return made;
}

/** Puts the buffer under `chunk` back into the pool when `alloc` made it, dropping the least recently returned ones past `SPARE_BYTES`. */
function giveBack(chunk: Uint8Array): void {
  const buffer = chunk.buffer as ArrayBuffer;
  if (!lendable.has(buffer) || spare.includes(buffer) || buffer.byteLength > SPARE_BYTES) return;
  while (spareBytes + buffer.byteLength > SPARE_BYTES) spareBytes -= spare.shift()!.byteLength;
  spare.push(buffer);
  spareBytes += buffer.byteLength;
}

export interface TByteChannel {
  /** Hands one chunk to the reader (a `TByteSink`); throws what `abandon` was given. */
  push: (chunk: Uint8Array) => void;
  /** Resolves when the reader has room again (a `TPace`). */
  pace: () => Promise<void> | void;
  close(): void;
  fail(err: unknown): void;
  abandon(err: unknown): void;
  chunks(): AsyncIterable<Uint8Array>;
  /** A buffer of `size` bytes for the writer to fill and push (see the module doc). */
  alloc(size: number): Buffer;
}

export function byteChannel(highWater = 8): TByteChannel {
  const queue: Uint8Array[] = [];
  let closed = false;
  let failure: { err: unknown } | null = null;
  let abandoned: { err: unknown } | null = null;
  const waiting: { reader?: () => void; writer?: () => void } = {};
  const wake = (side: "reader" | "writer") => {
    const w = waiting[side];
    waiting[side] = undefined;
    w?.();
  };
  return {
    push(chunk) {
      if (abandoned) throw abandoned.err;
      queue.push(chunk);
      wake("reader");
    },
    pace() {
      if (abandoned) throw abandoned.err;
      if (queue.length < highWater) return;
      return new Promise<void>((resolve, reject) => {
        waiting.writer = () => (abandoned ? reject(abandoned.err) : resolve());
      });
    },
    close() {
      closed = true;
      wake("reader");
    },
    fail(err) {
      failure = { err };
      wake("reader");
    },
    abandon(err) {
      abandoned = { err };
      queue.length = 0;
      wake("writer");
    },
    async *chunks() {
      for (;;) {
        if (failure) throw failure.err;
        const next = queue.shift();
        if (next) {
          if (queue.length < highWater) wake("writer");
          yield next;
          // the reader asks for the next chunk: it is done with this one
          giveBack(next);
          continue;
        }
        if (closed) return;
        await new Promise<void>((resolve) => (waiting.reader = resolve));
      }
    },
    alloc,
  };
}
