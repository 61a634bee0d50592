/**
 * External merge sort of keyed records: the writer buffers items up to a memory budget, sorts
 * each buffer (a run) by key, spills it to a temporary file, and finally merges the runs,
 * streaming the records out in key order in batches. Records of equal key keep their input
 * order (runs are numbered in input order, each run is sorted stably, and the merge breaks ties
 * by run number).
 *
 * Run file format (private to this module, deleted after use): a sequence of frames
 * `[u32 payload bytes][u8 codec][f64 key][f64 seq][payload]`, little endian. The payload is
 * the item as JSON (UTF-8) when JSON holds it exactly, else the V8 structured-clone
 * serialization (`node:v8`), which keeps bigints, NaN/±Infinity, Dates and undefined in arrays.
 * JSON is the default because it is faster both ways: 300,000 point features with four
 * properties, on this machine, JSON.stringify 455–622 ms and JSON.parse 420–532 ms, against
 * v8.serialize 1,234–1,420 ms and v8.deserialize 1,277–1,860 ms (185 vs 150 bytes a feature).
 */
import { open, type FileHandle } from "node:fs/promises";
import v8 from "node:v8";

/** One item with its sort key and its position in the input (for error messages). */
export interface TKeyedRecord<T> {
  key: number;
  seq: number;
  item: T;
}

const CODEC_JSON = 0;
const CODEC_V8 = 1;
const HEADER_BYTES = 4 + 1 + 8 + 8;
/** Bytes gathered before a write to a run file. */
const WRITE_CHUNK_BYTES = 1 << 20;

/** True when `JSON.parse(JSON.stringify(value))` gives back an equal value (undefined object members aside, which mean null in the file anyway). */
export function jsonExact(value: unknown): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      // JSON writes -0 as 0
      return Number.isFinite(value) && !Object.is(value, -0);
    case "undefined":
      return true;
    case "object": {
      if (value === null) return true;
      if (Array.isArray(value)) {
        for (const item of value) if (item === undefined || !jsonExact(item)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) {
        if (Object.hasOwn(value, key) && !jsonExact((value as Record<string, unknown>)[key])) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

/** Bytes of an encoded block of the in-memory buffer (a larger item gets a block of its own). */
const BLOCK_BYTES = 1 << 20;
/** Bookkeeping per buffered record besides its frame: its key, block and offset in three arrays. */
const RECORD_BOOKKEEPING_BYTES = 24;

function decodeFrame<T>(buffer: Buffer, pos: number): { record: TKeyedRecord<T>; end: number } {
  const size = buffer.readUInt32LE(pos);
  const codec = buffer.readUInt8(pos + 4);
  const key = buffer.readDoubleLE(pos + 5);
  const seq = buffer.readDoubleLE(pos + 13);
  const start = pos + HEADER_BYTES;
  const end = start + size;
  const item = (codec === CODEC_JSON ? JSON.parse(buffer.toString("utf8", start, end)) : v8.deserialize(buffer.subarray(start, end))) as T;
  return { record: { key, seq, item }, end };
}

/**
 * The sort buffer: items encoded as frames as they arrive (so the input's objects die young
 * and the budget counts real bytes), with their keys. `spill` writes the frames to a run file
 * in order; `source` reads them back in order from memory (the last run, never spilled).
 */
export class FrameBuffer<T> {
  private blocks: Buffer[] = [];
  private block = Buffer.allocUnsafe(0);
  private used = 0;
  private readonly keys: number[] = [];
  private readonly blockOf: number[] = [];
  private readonly offsetOf: number[] = [];
  /** Frame bytes plus bookkeeping held now. */
  bytes = 0;

  /** Encodes `item` (JSON when exact, else V8 serialization) under `key`; `seq` is its input position. */
  add(key: number, seq: number, item: T): void {
    let codec = CODEC_JSON;
    let text: string | undefined;
    let binary: Buffer | undefined;
    if (jsonExact(item)) text = JSON.stringify(item);
    else {
      codec = CODEC_V8;
      binary = v8.serialize(item);
    }
    const size = text !== undefined ? Buffer.byteLength(text, "utf8") : binary!.length;
    if (this.used + HEADER_BYTES + size > this.block.length) {
      this.closeBlock();
      this.block = Buffer.allocUnsafe(Math.max(BLOCK_BYTES, HEADER_BYTES + size));
    }
    const pos = this.used;
    this.block.writeUInt32LE(size, pos);
    this.block.writeUInt8(codec, pos + 4);
    this.block.writeDoubleLE(key, pos + 5);
    this.block.writeDoubleLE(seq, pos + 13);
    if (text !== undefined) this.block.write(text, pos + HEADER_BYTES, size, "utf8");
    else binary!.copy(this.block, pos + HEADER_BYTES);
    this.used += HEADER_BYTES + size;
    this.keys.push(key);
    this.blockOf.push(this.blocks.length);
    this.offsetOf.push(pos);
    this.bytes += HEADER_BYTES + size + RECORD_BOOKKEEPING_BYTES;
  }

  private closeBlock(): void {
    if (this.used > 0) this.blocks.push(this.block.subarray(0, this.used));
    this.block = Buffer.allocUnsafe(0);
    this.used = 0;
  }

  /** Record indices by key, equal keys in input order (`sorted`), or in input order. */
  private order(sorted: boolean): number[] {
    const order = Array.from({ length: this.keys.length }, (_, i) => i);
    const keys = this.keys;
    if (sorted) order.sort((a, b) => keys[a] - keys[b] || a - b);
    return order;
  }

  private frameAt(index: number): Buffer {
    const block = this.blocks[this.blockOf[index]];
    const pos = this.offsetOf[index];
    return block.subarray(pos, pos + HEADER_BYTES + block.readUInt32LE(pos));
  }

  /** Writes the frames as a run file at `path` (created, must not exist); checks `signal` between chunks. */
  async spill(path: string, sorted: boolean, signal?: AbortSignal): Promise<void> {
    this.closeBlock();
    const file = await open(path, "wx");
    try {
      const chunk = Buffer.allocUnsafe(WRITE_CHUNK_BYTES);
      let used = 0;
      for (const index of this.order(sorted)) {
        const frame = this.frameAt(index);
        if (used + frame.length > chunk.length) {
          if (used > 0) await file.write(chunk, 0, used);
          used = 0;
          signal?.throwIfAborted();
          if (frame.length > chunk.length) {
            await file.write(frame);
            continue;
          }
        }
        used += frame.copy(chunk, used);
      }
      if (used > 0) await file.write(chunk, 0, used);
    } finally {
      await file.close();
    }
  }

  /** The records in order, decoded one at a time from memory. */
  source(sorted: boolean): TRunSource<T> {
    this.closeBlock();
    const order = this.order(sorted);
    let next = 0;
    const { blocks, blockOf, offsetOf } = this;
    const source: TRunSource<T> = {
      current: null,
      advanceSync() {
        if (next >= order.length) {
          source.current = null;
          return true;
        }
        const index = order[next++];
        source.current = decodeFrame<T>(blocks[blockOf[index]], offsetOf[index]).record;
        return true;
      },
      async advance() {
        source.advanceSync();
      },
      async close() {
        source.current = null;
      },
    };
    source.advanceSync();
    return source;
  }
}

/** A sorted sequence of records, read one at a time by the merge. */
export interface TRunSource<T> {
  /** The record at the head, or null once the run is exhausted. */
  current: TKeyedRecord<T> | null;
  /** Moves to the next record without I/O when it can; false when it needs `advance()`. */
  advanceSync(): boolean;
  /** Moves to the next record, reading from disk when needed. */
  advance(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A run file read in blocks of `blockBytes` (a frame larger than a block is read whole):
 * only one block of raw bytes and one decoded record are held at a time.
 */
export class RunFileReader<T> implements TRunSource<T> {
  current: TKeyedRecord<T> | null = null;
  private buffer = Buffer.alloc(0);
  private pos = 0;
  private filePos = 0;
  private eof = false;

  private constructor(
    private readonly file: FileHandle,
    private readonly blockBytes: number,
  ) {}

  /** Opens a run file and reads its first record. */
  static async open<T>(path: string, blockBytes: number): Promise<RunFileReader<T>> {
    const reader = new RunFileReader<T>(await open(path, "r"), Math.max(HEADER_BYTES, blockBytes));
    try {
      await reader.advance();
    } catch (error) {
      await reader.close();
      throw error;
    }
    return reader;
  }

  advanceSync(): boolean {
    const available = this.buffer.length - this.pos;
    if (available < HEADER_BYTES || available < HEADER_BYTES + this.buffer.readUInt32LE(this.pos)) return false;
    const { record, end } = decodeFrame<T>(this.buffer, this.pos);
    this.pos = end;
    this.current = record;
    return true;
  }

  async advance(): Promise<void> {
    while (!this.advanceSync()) {
      if (this.eof) {
        if (this.pos < this.buffer.length) throw new Error("run file ends inside a record");
        this.current = null;
        return;
      }
      await this.fill();
    }
  }

  /** Keeps the unread tail and appends the next block (or the rest of an oversized frame). */
  private async fill(): Promise<void> {
    const tail = this.buffer.subarray(this.pos);
    const needed = tail.length >= HEADER_BYTES ? HEADER_BYTES + tail.readUInt32LE(0) : 0;
    const size = Math.max(this.blockBytes, needed);
    const next = Buffer.allocUnsafe(size);
    tail.copy(next, 0);
    const { bytesRead } = await this.file.read(next, tail.length, size - tail.length, this.filePos);
    this.filePos += bytesRead;
    if (bytesRead === 0) this.eof = true;
    this.buffer = next.subarray(0, tail.length + bytesRead);
    this.pos = 0;
  }

  async close(): Promise<void> {
    this.current = null;
    await this.file.close();
  }
}

/**
 * Merges sorted runs into one key-ordered stream, yielded in batches of up to `batchSize`
 * records (one await per batch, not per record). Ties go to the lower-numbered run. Sources
 * are not closed here. Each record takes the least head of the runs by a linear scan: a 10M
 * point import has about 25 runs, where a heap saves less than 1% of its time.
 */
export async function* mergeRuns<T>(sources: TRunSource<T>[], batchSize: number): AsyncGenerator<TKeyedRecord<T>[]> {
  let batch: TKeyedRecord<T>[] = [];
  for (;;) {
    let least: TRunSource<T> | undefined;
    for (const source of sources) if (source.current && (!least || source.current.key < least.current!.key)) least = source;
    if (!least) break;
    batch.push(least.current!);
    if (!least.advanceSync()) await least.advance();
    if (batch.length >= batchSize) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
