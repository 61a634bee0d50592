// npx tsx scripts/s3-server.ts [--port N] [--bucket NAME] [--dir PATH] - an S3-compatible
// server (s3rver) on 127.0.0.1 for BLOB_STORE=s3 without a cloud account: local runs, and
// several web/worker processes sharing one bucket. Prints the endpoint and the environment
// to start the app with, then runs until Ctrl-C. Without --dir the objects live in a temp
// folder removed on exit. Flags fall back to S3_SERVER_PORT, S3_BUCKET, S3_SERVER_DIR.
import { parseArgs } from "node:util";
import { startS3Server } from "@/lib/blobs/s3-test-server";

const { values } = parseArgs({
  options: { port: { type: "string" }, bucket: { type: "string" }, dir: { type: "string" } },
});
const port = Number(values.port ?? process.env.S3_SERVER_PORT ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`[s3-server] --port must be an integer from 0 (any free port) to 65535, not ${values.port ?? process.env.S3_SERVER_PORT}`);
  process.exit(2);
}
const bucket = values.bucket ?? process.env.S3_BUCKET ?? "flow-api";
const server = await startS3Server({ port, bucket, directory: values.dir ?? process.env.S3_SERVER_DIR });

console.log(`[s3-server] listening on ${server.endpoint} bucket=${bucket} (loopback only${values.dir ? `, objects in ${values.dir}` : ", temp folder"})`);
console.log(
  `[s3-server] BLOB_STORE=s3 S3_ENDPOINT=${server.endpoint} S3_BUCKET=${bucket} S3_ACCESS_KEY_ID=${server.credentials.accessKeyId} S3_SECRET_ACCESS_KEY=${server.credentials.secretAccessKey}`,
);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error("[s3-server] stop failed", err);
        process.exit(1);
      },
    );
  });
}
