/**
 * Output accumulation helpers shared by the writers: text is gathered into bounded string
 * chunks, encoded to UTF-8 once per chunk, and concatenated at the end, so no single giant
 * string or repeatedly doubled buffer is built. Pure (no I/O).
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
}

/** Characters gathered before a text chunk is encoded to UTF-8 (~1 MiB of ASCII). */
const TEXT_CHUNK_CHARS = 1024 * 1024;

/**
 * Collects UTF-8 text in pieces. `push` strings; `finish` returns all bytes as one Buffer
 * (a Uint8Array), or an empty one when a `sink` took the chunks (~1 MiB each) as they were
 * encoded. Lone UTF-16 surrogates become U+FFFD (WHATWG UTF-8 encoding).
 */
export class Utf8Chunks {
  private readonly chunks: Buffer[] = [];
  private pending: string[] = [];
  private pendingChars = 0;
  private total = 0;

  constructor(private readonly sink?: TByteSink) {}

  /** Appends text. */
  push(text: string): void {
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= TEXT_CHUNK_CHARS) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    const chunk = Buffer.from(this.pending.join(""), "utf8");
    if (this.sink) this.sink(chunk);
    else this.chunks.push(chunk);
    this.total += chunk.length;
    this.pending = [];
    this.pendingChars = 0;
  }

  /** Flushes and returns the whole UTF-8 body (empty with a sink). */
  finish(): Buffer {
    this.flush();
    if (this.sink) return Buffer.alloc(0);
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.total);
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
