/**
 * Job "layer-import" (worker side): one staged upload (`layer_import` row, lib/layers/stage-upload.ts)
 * becomes the layer's new file.
 *
 * 1. The import row goes `queued -> running`.
 * 2. An import process (lib/layers/import-process.ts) parses, validates, sorts and writes the
 *    file into the blob store under a new key, inside its own memory cap (`IMPORT_MEMORY_MB`);
 *    its progress (bytes read, items) is written to the import row every half second, which the
 *    upload dialog follows (also after the page was closed).
 * 3. In one transaction: the layer row points at the new file (created, or replaced with the
 *    next `dataVersion`: runs in flight keep reading the old file, which the maintenance purge
 *    deletes later) and the import becomes `completed` with the result.
 * On any failure the import becomes `failed` with the problem (fields naming the feature, row and
 * column), the new file is deleted and the old layer is untouched. The staged upload is deleted
 * whatever the outcome.
 */
import "server-only";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { blobStore } from "@/lib/blobs";
import { db } from "@/lib/db";
import { isUniqueViolation } from "@/lib/database/unique-violation";
import { env, privateTmpDir } from "@/lib/env";
import type { TLayerImportJob } from "@/lib/jobs/schemas";
import { layerFileKey } from "@/lib/layers/layer-file-key";
import type { TImportAnswer, TImportRequest } from "@/lib/layers/import-process";
import type { TUploadFormat } from "@/lib/layers/parse";
import { processEntry } from "@/lib/processes/process-entry";

const SOURCE = fileURLToPath(new URL("./import-process.ts", import.meta.url));

type TDone = Extract<TImportAnswer, { type: "done" }>;
type TProblem = Extract<TImportAnswer, { type: "failed" }>["problem"];

/** An import that failed on the file: its problem as the import process reported it. */
export class ImportFailed extends Error {
  constructor(readonly problem: TProblem) {
    super(problem.detail);
  }
}

/**
 * Runs one import in a child process (also a run's input by reference, lib/runs/href-input.ts);
 * resolves with its summary, rejects with ImportFailed.
 */
export function importInChild(req: TImportRequest, onProgress: (bytesDone: number, itemsDone: number) => void, signal: AbortSignal): Promise<TDone> {
  const entry = processEntry(SOURCE, "import-process");
  const child = fork(entry.script, [], {
    execArgv: [...entry.execArgv, `--max-old-space-size=${env().IMPORT_MEMORY_MB}`],
    serialization: "advanced",
    stdio: ["ignore", "inherit", "pipe", "ipc"],
  });
  let outOfMemory = false;
  child.stderr?.on("data", (chunk: Buffer) => {
    if (chunk.includes("heap out of memory") || chunk.includes("Reached heap limit")) outOfMemory = true;
    process.stderr.write(chunk);
  });
  const onAbort = () => child.kill("SIGKILL");
  signal.addEventListener("abort", onAbort, { once: true });
  return new Promise<TDone>((resolve, reject) => {
    let settled = false;
    child.on("message", (msg: TImportAnswer) => {
      if (msg.type === "progress") return onProgress(msg.bytesDone, msg.itemsDone);
      settled = true;
      child.kill();
      if (msg.type === "done") resolve(msg);
      else reject(new ImportFailed(msg.problem));
    });
    child.on("exit", (code, sig) => {
      signal.removeEventListener("abort", onAbort);
      if (settled) return;
      if (outOfMemory || sig === "SIGABRT" || code === 134) {
        reject(
          new ImportFailed({
            code: "payload_too_large",
            detail: `Importing this file needed more than the ${env().IMPORT_MEMORY_MB} MB an import may use (a single feature or row too large?).`,
          }),
        );
      } else reject(new Error(`the import process ended unexpectedly (${sig ?? `exit code ${code}`})`));
    });
    child.send(req);
  });
}

export async function runLayerImportJob(data: TLayerImportJob, ctx: { signal: AbortSignal }): Promise<void> {
  const claimed = await db.layerImport.updateMany({
    where: { id: data.importId, state: { in: ["queued", "running"] } },
    data: { state: "running", startedAt: new Date() },
  });
  if (claimed.count === 0) return; // finished already
  const imp = await db.layerImport.findUniqueOrThrow({ where: { id: data.importId } });
  const fileKey = layerFileKey(imp.workspaceId, imp.layerId, imp.id);
  const store = blobStore();
  try {
    let lastWrite = Promise.resolve();
    const done = await importInChild(
      {
        type: "import",
        uploadKey: imp.uploadKey,
        fileKey,
        format: imp.format as TUploadFormat,
        lonColumn: imp.lonColumn ?? undefined,
        latColumn: imp.latColumn ?? undefined,
        tmpDir: privateTmpDir("imports", imp.id),
      },
      (bytesDone, itemsDone) => {
        lastWrite = lastWrite
          .then(() => db.layerImport.update({ where: { id: imp.id }, data: { bytesDone: BigInt(bytesDone), itemsDone: BigInt(itemsDone) } }))
          .then(() => {})
          .catch(() => {});
      },
      ctx.signal,
    );
    await lastWrite;
    await commitLayer(imp, done);
  } catch (err) {
    await store.delete(fileKey).catch(() => {});
    if (ctx.signal.aborted) throw err; // the job expired or the worker stops: pg-boss retries it
    const problem: TProblem =
      err instanceof ImportFailed ? err.problem : { code: "internal", detail: "The file could not be imported because of an internal error." };
    if (!(err instanceof ImportFailed)) console.error(`[worker] layer import ${imp.id} failed:`, err);
    await db.layerImport.update({ where: { id: imp.id }, data: { state: "failed", error: problem as object, finishedAt: new Date() } });
  } finally {
    if (!ctx.signal.aborted) await store.delete(imp.uploadKey).catch(() => {});
  }
}

type TImportRow = Awaited<ReturnType<typeof db.layerImport.findUniqueOrThrow>>;

/** The answer to an upload of a new id that another upload created meanwhile. */
function addedMeanwhile(imp: TImportRow): ImportFailed {
  return new ImportFailed({
    code: "conflict",
    detail: `A layer "${imp.layerId}" was added while this file was being imported; upload it again to replace that layer (replace=1), or choose another id.`,
  });
}

/**
 * The layer points at its new file and the import is completed, in one transaction. An upload
 * that did not confirm replacing (`replace`) found no layer with its id when it started; one
 * added since by another upload is not replaced unasked: the import fails with `conflict`.
 */
async function commitLayer(imp: TImportRow, done: TDone): Promise<void> {
  const fields = { name: imp.name, ...done.fields };
  await db
    .$transaction(async (tx) => {
      const key = { workspaceId: imp.workspaceId, id: imp.layerId };
      const existing = await tx.layer.findUnique({ where: { workspaceId_id: key }, select: { description: true } });
      if (existing && !imp.replace) throw addedMeanwhile(imp);
      const layer = existing
        ? await tx.layer.update({
            where: { workspaceId_id: key },
            data: { ...fields, description: imp.description ?? existing.description, dataVersion: { increment: 1 } },
          })
        : await tx.layer.create({ data: { id: imp.layerId, workspaceId: imp.workspaceId, description: imp.description, ...fields } });
      await tx.layerImport.update({
        where: { id: imp.id },
        data: {
          state: "completed",
          finishedAt: new Date(),
          itemsDone: BigInt(fields.itemCount),
          result: { layerId: layer.id, kind: layer.kind, itemCount: layer.itemCount, dataVersion: layer.dataVersion, replaced: existing !== null },
        },
      });
    })
    .catch((err: unknown) => {
      // two uploads of the same new id committing at once: the second loses as above
      throw isUniqueViolation(err) ? addedMeanwhile(imp) : err;
    });
}
