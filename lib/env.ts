/**
 * Process environment, read once and validated with zod. Every server module reads
 * configuration from here, never from `process.env` directly.
 *
 * `DATABASE_URL` is set by scripts/start.ts (embedded Postgres) when the user did not set it.
 * The blob store (lib/blobs) is the filesystem under `BLOB_DIR` unless `BLOB_STORE=s3`, which
 * then needs `S3_BUCKET`.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

/** "true"/"false", "1"/"0", "yes"/"no", "on"/"off" (any case), as zod's stringbool reads them. */
const ZEnvBoolean = z.stringbool();

export const ZEnv = z
  .object({
    DATABASE_URL: z.string().min(1, "DATABASE_URL is required (scripts/start.ts sets it for the embedded database)"),
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    /** Connections of each process's database pool (web server and worker each have one). */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1_000).default(20),
    /** Most requests that may wait for a pooled connection when all are busy; more are refused at once as `overloaded` (503). */
    DATABASE_POOL_MAX_WAITING: z.coerce.number().int().min(0).max(100_000).default(1_000),
    /** Longest expected wait for a pooled connection a request is admitted to (from recent hold times); longer is refused at once as `overloaded`, ms. */
    DATABASE_POOL_MAX_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(2_000),
    /** Longest wait for a new connection, or for a busy pool's next free one, ms. */
    DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
    /** Longest one SQL statement may run: the server cancels it (`statement_timeout`), and the client gives up 2 s later if the server does not answer at all, ms. */
    DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
    /** Longest a session may sit idle inside an open transaction before the server ends it (`idle_in_transaction_session_timeout`), ms. */
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
    /** Public base URL used in printed examples and OpenAPI servers. */
    PUBLIC_BASE_URL: z.string().url().optional(),
    /** More host names the MCP endpoint answers to (comma-separated), besides localhost and PUBLIC_BASE_URL's host (DNS-rebinding protection). */
    MCP_ALLOWED_HOSTS: z.string().optional(),
    /** Hours result files are kept after a run is final. */
    RESULT_RETENTION_HOURS: z.coerce
      .number()
      .int()
      .positive()
      .default(24 * 7),
    /** Hours an Idempotency-Key is remembered (IETF draft: at least 24 h). */
    IDEMPOTENCY_RETENTION_HOURS: z.coerce.number().int().min(24).default(24),
    /** Maximum accepted request body, bytes (413 above it). */
    MAX_BODY_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(20 * 1024 * 1024),
    /** Worker: runs executed at once per worker process. */
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
    /** Worker: memory budget of one run (the JS heap of its run process, cached layers included), MB. */
    RUN_MEMORY_MB: z.coerce.number().int().min(64).max(65_536).default(256),
    /** Worker: longest a run may compute (engine and the files written before it is final), seconds. */
    RUN_TIME_LIMIT_SECONDS: z.coerce.number().int().min(1).max(3_600).default(20),
    /** Worker: most bytes all result files of one run may take, MB. */
    RUN_MAX_RESULT_MB: z.coerce.number().int().min(1).max(4_096).default(200),
    /** Worker: most rows or features one step of a run may produce (the engine's `maxItems`). */
    RUN_MAX_ROWS: z.coerce.number().int().min(1_000).max(1_000_000_000).default(1_000_000),
    /** Worker: most bytes the inputs of one run given by `href` may take together, as fetched, MB (default: the upload limit, 2 GiB). */
    RUN_MAX_INPUT_MB: z.coerce.number().int().min(1).max(2_048).default(2_048),
    /** Worker: longest the fetch of one `href` input may take (headers and body), seconds. */
    RUN_INPUT_FETCH_SECONDS: z.coerce.number().int().min(1).max(3_600).default(300),
    /** Worker: the folder for temporary files (a layer import's sort runs); default `<project>/.data/tmp`. */
    TMP_DIR: z.string().min(1).optional(),
    /** Worker: memory cap of one layer import's process (its JS heap), MB. */
    IMPORT_MEMORY_MB: z.coerce.number().int().min(128).max(65_536).default(512),
    /** Worker: decoded layer row groups a run process keeps between runs (an LRU by bytes), MB. */
    LAYER_CACHE_MB: z.coerce.number().int().min(0).max(65_536).default(64),
    /** Where layers and result files live: `fs` (a folder, BLOB_DIR) or `s3` (a bucket of AWS S3 or an S3-compatible server). */
    BLOB_STORE: z.enum(["fs", "s3"]).default("fs"),
    /** fs store: its root folder (default `<project>/.data/blobs`). */
    BLOB_DIR: z.string().min(1).optional(),
    /** s3 store: the bucket (required when BLOB_STORE=s3). */
    S3_BUCKET: z.string().min(1).optional(),
    /** s3 store: a prefix put before every key, so one bucket can hold several installations (a `/` is added when missing). */
    S3_PREFIX: z.string().optional(),
    /** s3 store: the endpoint of an S3-compatible server (MinIO, R2, s3rver ...); unset for AWS S3. */
    S3_ENDPOINT: z.url().optional(),
    /** s3 store: the region the requests are signed for. */
    S3_REGION: z.string().min(1).default("us-east-1"),
    /** s3 store: an access key; when unset (with S3_SECRET_ACCESS_KEY) the AWS SDK's default credential chain applies. */
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    /** s3 store: path-style URLs (`endpoint/bucket/key`); default true when S3_ENDPOINT is set, false otherwise. */
    S3_FORCE_PATH_STYLE: ZEnvBoolean.optional(),
    /** s3 store: whether result downloads redirect to a short-lived presigned URL of the bucket instead of passing through the app. */
    S3_PRESIGN_DOWNLOADS: ZEnvBoolean.default(false),
  })
  .superRefine((e, ctx) => {
    if (e.BLOB_STORE === "s3" && !e.S3_BUCKET) ctx.addIssue({ code: "custom", path: ["S3_BUCKET"], message: "S3_BUCKET is required when BLOB_STORE=s3" });
    if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
      const missing = e.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID";
      ctx.addIssue({ code: "custom", path: [missing], message: "S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together or not at all" });
    }
  });
export type TEnv = z.infer<typeof ZEnv>;

let cached: TEnv | undefined;

/** The validated environment; throws a readable error naming each bad variable. */
export function env(): TEnv {
  if (cached) return cached;
  const parsed = ZEnv.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  cached = parsed.data;
  return cached;
}

/**
 * A private folder for one piece of work's temporary files (a layer import's sort runs):
 * `<TMP_DIR>/<name>`, by default under `.data/tmp` of the folder the process was started in
 * (the project: every script and the app start there), made with mode 0700. Callers remove it
 * when done.
 */
export function privateTmpDir(...name: string[]): string {
  const dir = path.join(env().TMP_DIR ?? path.join(process.cwd(), ".data", "tmp"), ...name);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
