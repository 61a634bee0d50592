/**
 * An S3-compatible server for tests and local runs: s3rver (a fake S3 written in Node, kept
 * as a devDependency) listening on 127.0.0.1 only, storing its objects in a folder of its
 * own. Used by lib/blobs/blob-store.test.ts (in-process) and scripts/s3-server.ts (a process
 * for `BLOB_STORE=s3` by hand or for several workers sharing one bucket).
 *
 * s3rver accepts the access key `S3RVER` with any secret: it checks that a Signature V4
 * request names a known key but does not verify the signature itself. Where it differs from
 * S3 (none of it matters against AWS S3 or MinIO):
 * - no AbortMultipartUpload (405): a failed multipart upload leaves its parts in s3rver's
 *   folder, though never an object;
 * - PutObject writes the object file as the bytes arrive, so a reader may see a partial object
 *   during a single-part put (S3 never shows one);
 * - `Range: bytes=0-0` returns the whole object (s3-store.ts cuts every body to its range);
 * - a ranged GET of an empty object answers a body that promises one byte, and the request
 *   stalls for the server's keep-alive timeout (5 s) before failing (S3 answers 416).
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";

export interface TS3TestServerOptions {
  /** Where s3rver keeps buckets and objects; default a new temp folder, removed by stop(). */
  directory?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Created at start (kept when it already exists in `directory`). */
  bucket: string;
}

export interface TS3TestServer {
  /** `http://127.0.0.1:<port>`, for S3_ENDPOINT. */
  endpoint: string;
  bucket: string;
  region: string;
  /** What s3rver accepts (S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY). */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** Stops the server (and removes `directory` when it was a temp folder of its own). */
  stop(): Promise<void>;
}

/** Starts s3rver on 127.0.0.1 with `opts.bucket` created; resolves once it listens. */
export async function startS3Server(opts: TS3TestServerOptions): Promise<TS3TestServer> {
  const ownDirectory = opts.directory === undefined;
  const directory = opts.directory ?? (await fs.mkdtemp(path.join(os.tmpdir(), "s3rver-")));
  await fs.mkdir(directory, { recursive: true, mode: 0o700 });
  // Loopback only (s3rver's default is "localhost", which may also mean ::1), never its shared
  // default folder (<tmp>/s3rver), and quiet: it logs every request otherwise.
  const server = new S3rver({ address: "127.0.0.1", port: opts.port ?? 0, silent: true, directory, configureBuckets: [{ name: opts.bucket }] });
  const address = await server.run();
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    bucket: opts.bucket,
    region: "us-east-1",
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    async stop() {
      await server.close();
      if (ownDirectory) await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
