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
import { SHORTEST_DECIMAL_MAX_BYTES, writeShortestDecimal } from "./shortest-decimal";

/** Receives a writer's output in order, one chunk at a time (each chunk is the sink's to keep). */
export type TByteSink = (chunk: Uint8Array) => void;

/**
 * Awaited by a writer between slices of its input: the consumer of its `TByteSink` holds the
 * writer back there until it has caught up (backpressure), or returns nothing to let it go on.
 */
export type TPace = () => Promise<void> | void;

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

  /** Bytes written so far (flushed chunks only). */
  get byteLength(): number {
    return this.total;
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

/** Bytes a `Utf8Writer` gathers before it hands a chunk on (~1 MiB, as `Utf8Chunks`). */
const UTF8_CHUNK_BYTES = 1024 * 1024;

/**
 * Writes UTF-8 straight into ~1 MiB byte chunks: text, single ASCII bytes and integers (as
 * decimal digits, without making a string). For writers that emit many small pieces (CSV
 * fields): joining them as strings first made a string per piece and per join, and the
 * collector's work on them was most of the CSV writer's time. `commit()` at a record boundary
 * hands a full chunk to the sink (or keeps it), so a chunk never ends inside a record; `finish`
 * as in `Utf8Chunks`. Lone UTF-16 surrogates become U+FFFD (Buffer's UTF-8 encoder, as
 * `Buffer.from`).
 */
export class Utf8Writer {
  private buf = Buffer.allocUnsafeSlow(2 * UTF8_CHUNK_BYTES);
  private pos = 0;
  private readonly chunks: Buffer[] = [];
  private total = 0;

  constructor(private readonly sink?: TByteSink) {}

  /** Makes room for `bytes` more (a full chunk goes out first; a larger piece gets a larger buffer). */
  private room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    this.emit();
    if (bytes > this.buf.length) this.buf = Buffer.allocUnsafeSlow(bytes);
  }

  /** One byte (an ASCII character code). */
  byte(code: number): void {
    if (this.pos === this.buf.length) this.room(1);
    this.buf[this.pos++] = code;
  }

  /** Text as UTF-8. */
  text(s: string): void {
    this.room(s.length * 3);
    this.pos += this.buf.write(s, this.pos, "utf8");
  }

  /**
   * Text of printable ASCII (0x20-0x7e) other than the quote, the comma and the backslash,
   * which neither a CSV field nor a JSON string quotes or escapes: copied byte by byte, which
   * beats a call into the UTF-8 encoder for short text. False (and nothing written) for any other
   * text, which the caller then writes its own way.
   */
  plainAscii(s: string): boolean {
    const n = s.length;
    this.room(n);
    const buf = this.buf;
    const start = this.pos;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x2c || c === 0x5c) return false;
      buf[start + i] = c;
    }
    this.pos = start + n;
    return true;
  }

  /** A safe integer (|n| <= 2^53 - 1) in decimal, as String(n) writes it ("-12", "0" for -0). */
  int(n: number): void {
    this.room(17);
    const buf = this.buf;
    let pos = this.pos;
    if (n < 0) {
      buf[pos++] = 0x2d;
      n = -n;
    }
    let digits = 1;
    for (let p = 10; p <= n; p *= 10) digits++;
    pos += digits;
    this.pos = pos;
    do {
      const q = Math.floor(n / 10);
      buf[--pos] = 0x30 + (n - q * 10);
      n = q;
    } while (n > 0);
  }

  /**
   * A number as String(n) writes it ("-12", "0.25", "1e+21", "NaN"): safe integers (`int`) and
   * the common non-integers (lib/formats/shortest-decimal.ts) digit by digit without making a
   * string, others through String(). Always ASCII with nothing a CSV field quotes.
   */
  number(n: number): void {
    if (Number.isSafeInteger(n)) return this.int(n);
    this.room(SHORTEST_DECIMAL_MAX_BYTES);
    const end = writeShortestDecimal(this.buf, this.pos, n);
    if (end >= 0) this.pos = end;
    else this.plainAscii(String(n));
  }

  /** Bytes `src[from..to)` as they are (already UTF-8). */
  copy(src: Uint8Array, from: number, to: number): void {
    const n = to - from;
    this.room(n);
    const buf = this.buf;
    let pos = this.pos;
    if (n < 32) for (let i = from; i < to; i++) buf[pos++] = src[i]!;
    else {
      buf.set(src.subarray(from, to), pos);
      pos += n;
    }
    this.pos = pos;
  }

  /** At a record boundary: hands the chunk on once it has reached ~1 MiB. */
  commit(): void {
    if (this.pos >= UTF8_CHUNK_BYTES) this.emit();
  }

  private emit(): void {
    if (this.pos === 0) return;
    const chunk = Buffer.allocUnsafeSlow(this.pos);
    this.buf.copy(chunk, 0, 0, this.pos);
    this.total += this.pos;
    this.pos = 0;
    if (this.sink) this.sink(chunk);
    else this.chunks.push(chunk);
  }

  /** Hands on the rest and returns the whole UTF-8 body (empty with a sink). */
  finish(): Buffer {
    this.emit();
    if (this.sink) return Buffer.alloc(0);
    return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.total);
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
