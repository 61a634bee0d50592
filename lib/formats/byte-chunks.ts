/**
 * Output accumulation helpers shared by the writers: text is gathered into bounded string
 * chunks, encoded to UTF-8 once per chunk, and concatenated at the end, so no single giant
 * string or repeatedly doubled buffer is built. Pure (no I/O).
 *
 * With a sink (`TByteSink`), each chunk is handed to it as soon as it is complete and not kept:
 * the run process streams a file to storage while it is still being written, and `finish`
 * then returns an empty body.
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

/** Bytes kept in the ByteWriter's working buffer before they are moved to the chunk list. */
const BINARY_CHUNK_BYTES = 8 * 1024 * 1024;
/** The same with a sink: smaller, so storage starts early and little is held. */
const SINK_CHUNK_BYTES = 1024 * 1024;

/**
 * A hyparquet-writer `Writer` that moves its working buffer into a list of chunks whenever it
 * passes 8 MiB (like hyparquet-writer's own file writer), so the output never goes through
 * repeated buffer doubling of the whole file. `getBytes()` returns the complete output once
 * `finish()` ran.
 */
export class ChunkedByteWriter extends ByteWriter {
  private readonly chunks: Uint8Array<ArrayBuffer>[] = [];
  private result: Uint8Array<ArrayBuffer> | undefined;

  /** `sink`: each chunk (about 1 MiB) goes there as it is complete; `getBytes()` is then empty. */
  constructor(private readonly sink?: TByteSink) {
    super(1024 * 1024);
  }

  override ensure(size: number): void {
    if (this.index > (this.sink ? SINK_CHUNK_BYTES : BINARY_CHUNK_BYTES)) this.moveOut();
    super.ensure(size);
  }

  private moveOut(): void {
    if (this.index === 0) return;
    // copy out the used part; the working buffer is reused from index 0
    const chunk = new Uint8Array(this.buffer.slice(0, this.index));
    if (this.sink) this.sink(chunk);
    else this.chunks.push(chunk);
    this.index = 0;
  }

  override finish(): void {
    this.moveOut();
    if (this.sink) {
      this.result = new Uint8Array(0);
    } else if (this.chunks.length === 1) {
      this.result = this.chunks[0];
    } else {
      const joined = Buffer.concat(this.chunks, this.offset);
      this.result = new Uint8Array(joined.buffer as ArrayBuffer, joined.byteOffset, joined.byteLength);
    }
    this.chunks.length = 0;
  }

  override getBuffer(): ArrayBuffer {
    const bytes = this.getBytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }

  /** The whole file; only valid after `finish()`. */
  override getBytes(): Uint8Array<ArrayBuffer> {
    if (!this.result) throw new Error("ChunkedByteWriter: getBytes() before finish()");
    return this.result;
  }
}

/** Lets other tasks run (the writers are CPU-bound), waits for `pace` if given, and honours an abort signal. */
export async function yieldToEventLoop(signal?: AbortSignal, pace?: TPace): Promise<void> {
  signal?.throwIfAborted();
  await new Promise<void>((resolve) => setImmediate(resolve));
  await pace?.();
  signal?.throwIfAborted();
}
