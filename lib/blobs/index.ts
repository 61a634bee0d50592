/**
 * The blob store of this process, chosen by the environment (lib/env.ts): `BLOB_STORE=fs`
 * (default) a folder at `BLOB_DIR` (default `.data/blobs` of the project folder), `BLOB_STORE=s3` the
 * bucket `S3_BUCKET` (with `S3_PREFIX`, `S3_ENDPOINT`, `S3_REGION`, `S3_ACCESS_KEY_ID` /
 * `S3_SECRET_ACCESS_KEY`, `S3_FORCE_PATH_STYLE`). Import the contract from here too:
 * `import { blobStore, BlobNotFoundError, blobAsyncBuffer } from "@/lib/blobs"`.
 */
import "server-only";
import path from "node:path";
import type { TBlobStore } from "@/lib/blobs/blob-store";
import { createFsBlobStore } from "@/lib/blobs/fs-store";
import { createS3BlobStore } from "@/lib/blobs/s3-store";
import { env, type TEnv } from "@/lib/env";

export * from "@/lib/blobs/blob-store";

/** A store for the given configuration (the validated environment: its `BLOB_*` and `S3_*` variables). */
export function blobStoreFor(e: TEnv): TBlobStore {
  // Default `.data/blobs` of the project folder, which every process of the app runs in
  // (scripts/app-processes.ts starts them there), as lib/auth/secret.ts finds `.data/auth-secret`.
  // Not `import.meta.dirname`: inside the Next.js server bundle that is the bundle's folder.
  if (e.BLOB_STORE === "fs") return createFsBlobStore({ root: e.BLOB_DIR ?? path.join(process.cwd(), ".data", "blobs") });
  // ZEnv refuses BLOB_STORE=s3 without S3_BUCKET already; this narrows its type.
  if (!e.S3_BUCKET) throw new Error("S3_BUCKET is required when BLOB_STORE=s3");
  return createS3BlobStore({
    bucket: e.S3_BUCKET,
    prefix: e.S3_PREFIX,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  });
}

let cached: TBlobStore | undefined;

/** This process's store, made once from `env()`. @throws Error (from env()) when the environment is invalid */
export function blobStore(): TBlobStore {
  cached ??= blobStoreFor(env());
  return cached;
}
