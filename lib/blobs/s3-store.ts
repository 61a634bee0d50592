/**
 * The S3 blob store: one object per key in a bucket of AWS S3 or of an S3-compatible server
 * (MinIO, Cloudflare R2, Ceph, s3rver in the tests), through the AWS SDK v3
 * (`@aws-sdk/client-s3`; `@aws-sdk/lib-storage`'s `Upload` for puts, which switches to a
 * multipart upload above one part; `@aws-sdk/s3-request-presigner` for download URLs).
 *
 * Atomicity is S3's: a PutObject or CompleteMultipartUpload makes the whole object visible at
 * once, and a failed multipart upload is aborted (lib-storage sends AbortMultipartUpload).
 * The SHA-256 is computed here while the body streams up, so it is the hash of the bytes sent.
 * Memory of one put: about `partSizeBytes * (queueSize + 1)` (the parts in flight and the one filling).
 *
 * The SDK (about 130 ms and 25 MB to load) is imported on first use, so a process whose
 * store is the filesystem never loads it and this module can be imported everywhere.
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { S3Client } from "@aws-sdk/client-s3";
import {
  BlobNotFoundError,
  abortableChunks,
  assertBlobKey,
  assertBlobPrefix,
  assertByteRange,
  attachmentDisposition,
  readRange,
  type TBlobInfo,
  type TBlobListing,
  type TBlobStore,
  type TByteRange,
  type TPresignOptions,
  type TPutOptions,
} from "@/lib/blobs/blob-store";

export interface TS3BlobStoreOptions {
  bucket: string;
  /** Put before every key (a `/` is added when missing); listings strip it again. */
  prefix?: string;
  /** An S3-compatible server's URL; unset for AWS S3. */
  endpoint?: string;
  region: string;
  /** Unset: the SDK's default credential chain (environment, profile, instance role ...). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Path-style URLs (`endpoint/bucket/key`); default: true when `endpoint` is set. */
  forcePathStyle?: boolean;
  /** Multipart part size, bytes (S3's minimum is 5 MiB); default 8 MiB. */
  partSizeBytes?: number;
  /** Parts uploaded at once; default 4. */
  queueSize?: number;
}

const DEFAULT_PART_BYTES = 8 * 1024 * 1024;

type TSdk = typeof import("@aws-sdk/client-s3") & {
  Upload: typeof import("@aws-sdk/lib-storage").Upload;
  getSignedUrl: typeof import("@aws-sdk/s3-request-presigner").getSignedUrl;
};
let sdkPromise: Promise<TSdk> | undefined;

function loadSdk(): Promise<TSdk> {
  sdkPromise ??= Promise.all([import("@aws-sdk/client-s3"), import("@aws-sdk/lib-storage"), import("@aws-sdk/s3-request-presigner")]).then(
    ([s3, storage, presigner]) => ({ ...s3, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl }),
  );
  return sdkPromise;
}

/**
 * The SDK's error for a missing object: `NoSuchKey` on GET, a bare 404 `NotFound` on HEAD.
 * Not any 404: a GET's `NoSuchBucket` is a configuration fault and must not read as "no object"
 * (a HEAD cannot tell the two apart: S3 sends it no body).
 */
function isNotFound(err: unknown): boolean {
  const name = (err as { name?: string } | null)?.name;
  return name === "NoSuchKey" || name === "NotFound";
}

/** 416: the range starts at or past the end of an existing object. */
function isUnsatisfiableRange(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === "InvalidRange" || e?.$metadata?.httpStatusCode === 416;
}

/** The S3 store over `opts.bucket` (see the module comment). */
export function createS3BlobStore(opts: TS3BlobStoreOptions): TBlobStore {
  const bucket = opts.bucket;
  const keyPrefix = opts.prefix && !opts.prefix.endsWith("/") ? `${opts.prefix}/` : (opts.prefix ?? "");
  const partSize = opts.partSizeBytes ?? DEFAULT_PART_BYTES;
  const queueSize = opts.queueSize ?? 4;
  const objectKey = (key: string) => {
    assertBlobKey(key);
    return keyPrefix + key;
  };

  let clientPromise: Promise<{ sdk: TSdk; s3: S3Client }> | undefined;
  /** The SDK and this store's client, both made on first use. */
  const client = () =>
    (clientPromise ??= loadSdk().then((sdk) => ({
      sdk,
      s3: new sdk.S3Client({
        region: opts.region,
        endpoint: opts.endpoint,
        forcePathStyle: opts.forcePathStyle ?? Boolean(opts.endpoint),
        credentials: opts.credentials,
        // Some S3-compatible servers reject the CRC32 checksums the SDK adds to every upload
        // by default since early 2025; checksums only where an operation requires them
        // (DeleteObjects) work everywhere, and put's own SHA-256 covers the bytes.
        ...(opts.endpoint ? { requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" } : {}),
      }),
    })));

  /** GET of `[start, end)` (the whole object without a range), or null when the range is past the end. @throws BlobNotFoundError */
  async function getObject(key: string, range?: TByteRange): Promise<Readable | null> {
    const { sdk, s3 } = await client();
    if (range && range.end === range.start) {
      // An empty range has no HTTP spelling; only the object's existence is left to check.
      if ((await store.size(key)) === null) throw new BlobNotFoundError(key);
      return null;
    }
    try {
      const res = await s3.send(
        new sdk.GetObjectCommand({ Bucket: bucket, Key: objectKey(key), Range: range ? `bytes=${range.start}-${range.end - 1}` : undefined }),
      );
      return res.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key);
      if (range && isUnsatisfiableRange(err)) return null;
      throw err;
    }
  }

  /**
   * The body's chunks, at most `limit` bytes of them. S3 sends exactly the range asked for;
   * some compatible servers (s3rver answers `bytes=0-0` with the whole object) send more.
   */
  async function* bounded(body: Readable, limit: number): AsyncGenerator<Uint8Array> {
    let left = limit;
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        if (left <= 0) break;
        const piece = chunk.byteLength > left ? chunk.subarray(0, left) : chunk;
        left -= piece.byteLength;
        yield piece;
      }
    } finally {
      body.destroy();
    }
  }

  const store: TBlobStore = {
    kind: "s3",

    async put(key: string, body: AsyncIterable<Uint8Array>, putOpts: TPutOptions = {}): Promise<TBlobInfo> {
      const Key = objectKey(key);
      putOpts.signal?.throwIfAborted();
      const { sdk, s3 } = await client();
      const hash = createHash("sha256");
      let sizeBytes = 0;
      // The body's own failure (or the abort), so that it, not the SDK's cleanup error, is what put rethrows.
      let bodyError: { error: unknown } | undefined;
      async function* hashed(): AsyncGenerator<Uint8Array> {
        try {
          for await (const chunk of abortableChunks(body, putOpts.signal)) {
            hash.update(chunk);
            sizeBytes += chunk.byteLength;
            // a copy: Upload keeps chunks until it has a part's worth, and the body may reuse
            // a chunk once the next is asked for (TBlobStore.put)
            yield Buffer.from(chunk);
          }
        } catch (error) {
          bodyError = { error };
          throw error;
        }
      }
      // No abortController for Upload: aborting it settles done() at once while a PutObject may
      // still land. Failing the body instead lets Upload finish its own way: it sends nothing
      // (single part) or aborts the multipart upload, and only then rejects.
      const readable = Readable.from(hashed(), { objectMode: false });
      const upload = new sdk.Upload({ client: s3, params: { Bucket: bucket, Key, Body: readable, ContentType: putOpts.contentType }, partSize, queueSize });
      try {
        await upload.done();
      } catch (err) {
        if (bodyError) throw bodyError.error;
        throw err;
      } finally {
        // Should Upload stop without finishing the body (lib-storage 3.1175 returns its
        // iterator itself when a part fails), this returns the caller's iterator, so its source
        // (a file, a request) is closed either way.
        readable.destroy();
      }
      return { key, sizeBytes, sha256: hash.digest("hex") };
    },

    getRange: (key: string, start: number, end: number) => readRange(store, key, start, end),

    async *stream(key: string, range?: TByteRange): AsyncGenerator<Uint8Array> {
      if (range) assertByteRange(range.start, range.end);
      const body = await getObject(key, range);
      if (!body) return;
      yield* bounded(body, range ? range.end - range.start : Number.POSITIVE_INFINITY);
    },

    async size(key: string): Promise<number | null> {
      const Key = objectKey(key);
      const { sdk, s3 } = await client();
      try {
        const res = await s3.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key }));
        return res.ContentLength ?? 0;
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },

    async delete(key: string): Promise<void> {
      const Key = objectKey(key);
      const { sdk, s3 } = await client();
      await s3.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key }));
    },

    async deletePrefix(prefix: string): Promise<number> {
      assertBlobPrefix(prefix);
      const { sdk, s3 } = await client();
      let deleted = 0;
      // One DeleteObjects per listed page (S3: at most 1000 keys each, which is a page's size).
      for await (const page of sdk.paginateListObjectsV2({ client: s3 }, { Bucket: bucket, Prefix: keyPrefix + prefix })) {
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (keys.length === 0) continue;
        const res = await s3.send(new sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
        const failed = res.Errors ?? [];
        if (failed.length > 0) {
          const first = failed[0];
          throw new Error(
            `S3 could not delete ${failed.length} of ${keys.length} objects under "${prefix}" (first: ${first.Key}: ${first.Code} ${first.Message})`,
          );
        }
        deleted += keys.length;
      }
      return deleted;
    },

    async *list(prefix: string): AsyncGenerator<TBlobListing> {
      assertBlobPrefix(prefix);
      const { sdk, s3 } = await client();
      for await (const page of sdk.paginateListObjectsV2({ client: s3 }, { Bucket: bucket, Prefix: keyPrefix + prefix })) {
        for (const o of page.Contents ?? []) {
          if (!o.Key) continue;
          yield { key: o.Key.slice(keyPrefix.length), sizeBytes: o.Size ?? 0, lastModified: o.LastModified ?? new Date(0) };
        }
      }
    },

    async presignedGetUrl(key: string, presign: TPresignOptions): Promise<string | null> {
      const Key = objectKey(key);
      const { sdk, s3 } = await client();
      const command = new sdk.GetObjectCommand({
        Bucket: bucket,
        Key,
        ResponseContentDisposition: attachmentDisposition(presign.filename),
        ResponseContentType: presign.contentType,
      });
      return sdk.getSignedUrl(s3, command, { expiresIn: presign.expiresSeconds });
    },
  };
  return store;
}
