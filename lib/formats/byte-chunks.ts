/**
 * Output accumulation helpers shared by the writers: text is encoded to UTF-8 as it is pushed,
 * into bounded chunks concatenated at the end, so no giant string or repeatedly doubled buffer
 * is built. Pure (no I/O).
 *
 * With a sink, chunks are handed to it as they are written and not kept (text: each ~1 MiB
 * chunk; Parquet: after each row group): the run process and the layer file writer stream a
 * file to storage while it is still being written, and the returned body is empty.
 */
import { ByteWriter } from "hyparquet-writer";

/** Receives a writer's output in order, one chunk at a time (each chunk is the sink's to keep). */
export type TByteSink = (chunk: Uint8Array) => void;

/**
 * Awaited by a writer between slices of its input: the consumer of its `TByteSink` holds the
 * writer back there until it has caught up (backpressure), or returns nothing to let it go on.
 */
export type TPace = () => Promise<void> | void;

/** What every writer takes besides its data. */
export interface TStreamOptions {
  /** Checked between slices of the input; an aborted signal rejects with its reason. */
  signal?: AbortSignal;
  /** Streams the file: each chunk (about 1 MiB) goes to the sink, in order, as it is written, and the returned body is empty. */
  sink?: TByteSink;
  /** Awaited between slices of the input (backpressure from whoever consumes `sink`). */
  pace?: TPace;
  /**
   * Where the text writers take the buffers they fill and hand to `sink` (default
   * `Buffer.allocUnsafe`): a channel that recycles them (lib/blobs/byte-channel.ts).
   */
  alloc?: (size: number) => Buffer;
}

/** Bytes of a text chunk (1 MiB): what a sink receives at a time. */
const TEXT_CHUNK_BYTES = 1024 * 1024;

/**
 * Collects UTF-8 text. `push` strings: each is encoded at once into the current chunk (a Buffer
 * of `TEXT_CHUNK_BYTES` from `alloc`), so no string longer than one push is ever built;
 * `finish` returns all bytes as one Buffer (a Uint8Array), or an empty one when a `sink` took
 * the chunks as they filled. Each push is encoded on its own: lone UTF-16 surrogates become U+FFFD (WHATWG UTF-8
 * encoding), so a surrogate pair must not be split across two pushes.
 *
 * Why no joining: a writer that joined its slices and then its chunk built strings of hundreds
 * of KB, which V8 allocates in its large-object space, straight into the old generation (about
 * 5 MB a run for the GeoJSON of bench "data"'s 1-degree `cities-in-area` row on the 10M layer),
 * where only an old-generation collection frees them. Pushed strings of one feature or one
 * record die young.
 */
export class Utf8Chunks {
  private readonly chunks: Buffer[] = [];
  private chunk: Buffer | null = null;
  private used = 0;
  private total = 0;

  constructor(
    private readonly sink?: TByteSink,
    private readonly alloc: (size: number) => Buffer = Buffer.allocUnsafe,
  ) {}

  /** Appends text. */
  push(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit (a surrogate pair: 4 for 2).
    const chunk = this.room(3 * text.length);
    this.used += chunk.write(text, this.used, "utf8");
  }

  /** Appends a few bytes as they are (a separator): copied in place, no string made for them. */
  pushBytes(bytes: Uint8Array): void {
    const chunk = this.room(bytes.length);
    for (let i = 0; i < bytes.length; i++) chunk[this.used++] = bytes[i]!;
  }

  /** The current chunk when `bytes` more fit in it, else a new one (the full one flushed). */
  private room(bytes: number): Buffer {
    if (this.chunk === null || this.used + bytes > this.chunk.length) {
      this.flush();
      this.chunk = this.alloc(Math.max(TEXT_CHUNK_BYTES, bytes));
    }
    return this.chunk;
  }

  private flush(): void {
    if (this.chunk === null || this.used === 0) return;
    const full = this.chunk.subarray(0, this.used);
    if (this.sink) this.sink(full);
    else this.chunks.push(full);
    this.total += this.used;
    this.chunk = null;
    this.used = 0;
  }

  /** Flushes and returns the whole UTF-8 body (empty with a sink). */
  finish(): Buffer {
    this.flush();
    if (this.sink) return Buffer.alloc(0);
    // a copy even of one chunk: a small body would otherwise hold a whole chunk's memory
    return Buffer.concat(this.chunks, this.total);
  }
}

/** Receives a file's bytes in order; a returned promise is awaited before more is sent (backpressure). */
export type TAsyncByteSink = (chunk: Uint8Array) => Promise<void> | void;

/** Bytes of output moved out of the working buffer at a time. */
const CHUNK_BYTES = 1 << 20;

/**
 * A hyparquet-writer `Writer` that moves its output out of the working buffer in chunks of about
 * 1 MiB, so a file never goes through repeated doubling of one buffer. `ParquetWriter` awaits
 * `flush()` after each row group: with a sink, the complete chunks go to it there (a slow sink
 * holds the writer back, so at most a row group's output plus one chunk is held), and `finish()`
 * sends the rest; without one, `getBytes()` returns the whole file once `finish()` ran.
 */
export class ChunkedByteWriter extends ByteWriter {
  private pending: Uint8Array<ArrayBuffer>[] = [];
  private readonly kept: Uint8Array<ArrayBuffer>[] = [];
  private finished = false;

  constructor(private readonly sink?: TAsyncByteSink) {
    super(CHUNK_BYTES + (CHUNK_BYTES >> 2));
  }

  override ensure(size: number): void {
    if (this.index >= CHUNK_BYTES) this.moveOut();
    super.ensure(size);
  }

  private moveOut(): void {
    if (this.index === 0) return;
    this.pending.push(new Uint8Array(this.buffer.slice(0, this.index)));
    this.index = 0;
  }

  /** Sends the complete chunks gathered so far (the partial one stays for the next row group). */
  async flush(): Promise<void> {
    const chunks = this.pending;
    this.pending = [];
    if (!this.sink) this.kept.push(...chunks);
    else for (const chunk of chunks) await this.sink(chunk);
  }

  /** Sends (or keeps) everything that is left. */
  override async finish(): Promise<void> {
    this.moveOut();
    await this.flush();
    this.finished = true;
  }

  /** The whole file (empty with a sink); only valid after `finish()`. */
  override getBytes(): Uint8Array<ArrayBuffer> {
    if (!this.finished) throw new Error("ChunkedByteWriter: getBytes() before finish()");
    if (this.kept.length === 1) return this.kept[0]!;
    const joined = Buffer.concat(this.kept, this.sink ? 0 : this.offset);
    return new Uint8Array(joined.buffer as ArrayBuffer, joined.byteOffset, joined.byteLength);
  }
}

/** Lets other tasks run (the writers are CPU-bound), waits for `pace` if given, and honours an abort signal. */
export async function yieldToEventLoop(signal?: AbortSignal, pace?: TPace): Promise<void> {
  signal?.throwIfAborted();
  await new Promise<void>((resolve) => setImmediate(resolve));
  await pace?.();
  signal?.throwIfAborted();
}
