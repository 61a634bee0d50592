/**
 * A bounded channel from a writer that pushes byte chunks (the result writers' `TByteSink` and
 * `TPace`, lib/formats/byte-chunks.ts) to a reader that pulls them (`TBlobStore.put`'s
 * `AsyncIterable<Uint8Array>`, lib/blobs). The writer is held back at `pace()` while
 * `highWater` chunks (about 1 MiB each) wait, so neither side holds a whole file.
 *
 * Ending: `close()` after the last chunk, or `fail(err)`, which the reader then throws (so a
 * failed encoding leaves no object in the store). A reader that stops early (the store failed)
 * must call `abandon(err)`: the writer's next `pace()` or push throws it instead of waiting.
 */

export interface TByteChannel {
  /** Hands one chunk to the reader (a `TByteSink`); throws what `abandon` was given. */
  push: (chunk: Uint8Array) => void;
  /** Resolves when the reader has room again (a `TPace`). */
  pace: () => Promise<void> | void;
  close(): void;
  fail(err: unknown): void;
  abandon(err: unknown): void;
  chunks(): AsyncIterable<Uint8Array>;
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
          continue;
        }
        if (closed) return;
        await new Promise<void>((resolve) => (waiting.reader = resolve));
      }
    },
  };
}
