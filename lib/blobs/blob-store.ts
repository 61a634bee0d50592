/**
 * The blob store contract: the data plane that holds layers (GeoParquet files) and result
 * files, while Postgres (the control plane) keeps each file's key, size and checksum
 * (docs: architecture.md "Control plane and data plane"). Two implementations share it and
 * one contract test (blob-store.test.ts): a folder (fs-store.ts, the default) and an S3
 * bucket (s3-store.ts); `blobStore()` (lib/blobs/index.ts, `@/lib/blobs`) picks one from the
 * environment. The implementations live in their own files and import this one, which is why
 * the factory is not here (no import cycle).
 *
 * Keys are `/`-separated relative paths (`layers/<id>/v3.parquet`): see `assertBlobKey`.
 * Byte ranges are half-open `[start, end)` in bytes, as `Uint8Array.subarray` takes them.
 *
 * Errors: `BlobNotFoundError` for a missing object, `InvalidBlobKeyError` for a key that
 * breaks the rules, `RangeError` for a negative or reversed range. These are programming or
 * storage faults, not a caller's: the domain maps them (a missing result file is a 404 there).
 */
import type { AsyncBuffer } from "hyparquet";

/** What `put` stored: the key, its size in bytes and the SHA-256 of its bytes (lowercase hex). */
export interface TBlobInfo {
  key: string;
  sizeBytes: number;
  sha256: string;
}

/** One object of a listing. */
export interface TBlobListing {
  key: string;
  sizeBytes: number;
  lastModified: Date;
}

/** A half-open byte range `[start, end)`; `end` past the object's size is clamped to it. */
export interface TByteRange {
  start: number;
  end: number;
}

export interface TPutOptions {
  /** Stored with the object on S3 (served back on GET); the filesystem does not keep it. */
  contentType?: string;
  /** Aborting it stops the upload: the put rejects and nothing appears under the key. */
  signal?: AbortSignal;
}

export interface TPresignOptions {
  /** The download's file name, sent as `Content-Disposition: attachment` (RFC 6266). */
  filename: string;
  contentType: string;
  /** How long the URL works, seconds (S3 allows 1 to 604800). */
  expiresSeconds: number;
}

export interface TBlobStore {
  /** `fs` or `s3`, for logs and health output. */
  readonly kind: "fs" | "s3";
  /**
   * Writes a whole object from a stream of chunks and returns its size and SHA-256. The object
   * appears only once complete, replacing any previous one: no partial object is ever visible
   * under `key`, and when `body` throws (or `signal` aborts) the put rejects with that error and
   * leaves the key as it was. On S3 large bodies go up as a multipart upload. A store is done
   * with a chunk of `body` when it asks for the next one: the body may then reuse its bytes
   * (lib/blobs/byte-channel.ts), so a store that keeps a chunk longer keeps a copy.
   */
  put(key: string, body: AsyncIterable<Uint8Array>, opts?: TPutOptions): Promise<TBlobInfo>;
  /** Bytes `[start, end)` of an object, `end` clamped to its size (empty when `start` is at or past the end). @throws BlobNotFoundError */
  getRange(key: string, start: number, end: number): Promise<Uint8Array>;
  /**
   * The object (or the range `[start, end)`) as a stream of chunks, read lazily as the
   * consumer pulls: nothing is requested before the first pull. Each chunk is the consumer's
   * to keep. @throws BlobNotFoundError on the first pull when the object is missing.
   */
  stream(key: string, range?: TByteRange): AsyncIterable<Uint8Array>;
  /** Size in bytes, or null when there is no such object. */
  size(key: string): Promise<number | null>;
  /** Removes an object; no error when it is missing. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix` (a plain string prefix, as S3 reads it); returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Every object whose key starts with `prefix`, in no guaranteed order. */
  list(prefix: string): AsyncIterable<TBlobListing>;
  /** S3: a short-lived presigned GET URL whose response carries the given Content-Disposition and Content-Type. The filesystem: null (the app serves the bytes itself). */
  presignedGetUrl(key: string, opts: TPresignOptions): Promise<string | null>;
}

/** No object under `key`. */
export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No blob under key "${key}"`);
    this.name = "BlobNotFoundError";
  }
}

/** A key (or prefix) that breaks the rules of `assertBlobKey`. */
export class InvalidBlobKeyError extends Error {
  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`Invalid blob key ${JSON.stringify(key)}: ${reason}`);
    this.name = "InvalidBlobKeyError";
  }
}

/** S3's limit on a key, UTF-8 bytes; the filesystem follows it too so a key works on both. */
const MAX_KEY_BYTES = 1024;
/** NAME_MAX of ext4, XFS, APFS: the longest file name, bytes. */
const MAX_SEGMENT_BYTES = 255;

/**
 * Checks a key: 1 to 1024 UTF-8 bytes of `/`-separated segments, none empty (so no leading,
 * trailing or doubled `/`), none `.` or `..`, none longer than 255 bytes, and no NUL, `\` or
 * other control character. Both stores apply the same rules, so a key valid on one is valid
 * on the other and can never leave the filesystem store's root.
 * @throws InvalidBlobKeyError naming the broken rule
 */
export function assertBlobKey(key: string): void {
  if (typeof key !== "string" || key.length === 0) throw new InvalidBlobKeyError(String(key), "empty");
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw new InvalidBlobKeyError(key, `longer than ${MAX_KEY_BYTES} bytes`);
  if (/[\u0000-\u001f\u007f\\]/.test(key)) throw new InvalidBlobKeyError(key, "contains a control character or a backslash");
  for (const segment of key.split("/")) {
    if (segment === "") throw new InvalidBlobKeyError(key, "has an empty segment (leading, trailing or doubled /)");
    if (segment === "." || segment === "..") throw new InvalidBlobKeyError(key, `has a "${segment}" segment`);
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES) throw new InvalidBlobKeyError(key, `has a segment longer than ${MAX_SEGMENT_BYTES} bytes`);
  }
}

/**
 * Checks a listing prefix: empty (everything), or a key, or a key followed by `/`.
 * @throws InvalidBlobKeyError
 */
export function assertBlobPrefix(prefix: string): void {
  if (prefix === "") return;
  assertBlobKey(prefix.endsWith("/") ? prefix.slice(0, -1) : prefix);
}

/** @throws RangeError unless `0 <= start <= end` are safe integers */
export function assertByteRange(start: number, end: number): void {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range [${start}, ${end}): expected integers with 0 <= start <= end`);
  }
}

/**
 * `Content-Disposition: attachment` for a file name, RFC 6266 section 4.3: an ASCII `filename`
 * fallback (other characters, quotes and backslashes become `_`) and the exact name as an
 * RFC 8187 `filename*` when it is not plain ASCII.
 */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\u0020-\u007e]|["\\]/g, "_");
  if (ascii === filename) return `attachment; filename="${ascii}"`;
  // RFC 8187 attr-char: encodeURIComponent leaves ' ( ) * unescaped, which attr-char does not allow.
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The chunks of `body` until `signal` aborts: then the iteration throws the signal's reason at
 * once, even while `body` is still waiting for its next chunk (a stalled upload), and `body`
 * is asked to stop (`return()`, not awaited since it may be stuck).
 */
export async function* abortableChunks(body: AsyncIterable<Uint8Array>, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  if (!signal) return yield* body;
  signal.throwIfAborted();
  const it = body[Symbol.asyncIterator]();
  const aborted = Promise.withResolvers<never>();
  const onAbort = () => aborted.reject(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  aborted.promise.catch(() => {}); // read by the race below; an abort after the end has no reader
  let finished = false;
  try {
    for (let next; !(next = await Promise.race([it.next(), aborted.promise])).done;) yield next.value;
    finished = true;
  } finally {
    signal.removeEventListener("abort", onAbort);
    if (!finished) void Promise.resolve(it.return?.()).catch(() => {});
  }
}

/**
 * `getRange` of either store: the range's chunks of `store.stream`, joined (a single chunk as it
 * is). @throws BlobNotFoundError, RangeError
 */
export async function readRange(store: TBlobStore, key: string, start: number, end: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of store.stream(key, { start, end })) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/**
 * A blob as hyparquet's `AsyncBuffer`, so `parquetMetadataAsync` / `parquetReadObjects` read
 * only the footer and the row groups they need, each `slice` one ranged read. `slice` takes
 * `ArrayBuffer.prototype.slice` arguments (negative counts from the end). Pass `opts.size`
 * when the control plane already knows it, to save one request. Wrap the result in
 * hyparquet's `cachedAsyncBuffer` when the same ranges are read again.
 * @throws BlobNotFoundError when the object is missing
 */
export async function blobAsyncBuffer(store: TBlobStore, key: string, opts: { size?: number } = {}): Promise<AsyncBuffer> {
  const byteLength = opts.size ?? (await store.size(key));
  if (byteLength === null) throw new BlobNotFoundError(key);
  const at = (i: number) => (i < 0 ? Math.max(0, byteLength + i) : Math.min(i, byteLength));
  return {
    byteLength,
    async slice(start: number, end?: number): Promise<ArrayBuffer> {
      const from = at(start);
      const to = Math.max(from, end === undefined ? byteLength : at(end));
      return toArrayBuffer(await store.getRange(key, from, to));
    },
  };
}

/**
 * The bytes as an ArrayBuffer of their own: a Uint8Array may view a larger or shared buffer
 * (Node's Buffer pool), so anything but an exact fit is copied (`new Uint8Array(view)` copies;
 * `Buffer#slice` would not).
 */
function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  return new Uint8Array(bytes).buffer;
}
