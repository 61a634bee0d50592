/**
 * The import process: a child process of the worker (lib/layers/run-layer-import.ts) that turns
 * one staged upload into a layer file, inside a memory cap of its own (`IMPORT_MEMORY_MB`,
 * `--max-old-space-size`), so a hostile or huge file can end this process only, never the web
 * process or the worker.
 *
 * It gets `{type: "import", ...}` with the staged upload's and the layer file's blob keys,
 * streams the upload through the parser of its format (lib/layers/parse) into the layer file
 * writer (lib/layers/layer-file) and the blob store, and answers `progress` (bytes read, items)
 * now and then and `done` with the file's summary, or `failed` with the problem (a
 * `validationError`'s fields are kept, so the designer sees the feature, row and column at fault).
 */
import fs from "node:fs";
import type { AsyncBuffer } from "hyparquet";
import { blobAsyncBuffer, blobStore } from "@/lib/blobs";
import { AppError } from "@/lib/errors";
import { layerItems, storableFieldError, storableText, type TUploadFormat, type TUploadSource } from "@/lib/layers/parse";
import { storeLayerFile, type TLayerFileFields } from "@/lib/layers/write-layer";

if (!process.send) throw new Error("import-process.ts runs only as a child process of the worker (lib/layers/run-layer-import.ts)");

export type TImportRequest = {
  type: "import";
  uploadKey: string;
  fileKey: string;
  format: TUploadFormat;
  lonColumn?: string;
  latColumn?: string;
  /** A CSV read as a table whatever its columns (a table input by reference). */
  asTable?: boolean;
  tmpDir: string;
};

export type TImportAnswer =
  | { type: "progress"; bytesDone: number; itemsDone: number }
  | { type: "done"; fields: TLayerFileFields }
  | { type: "failed"; problem: { code: string; detail: string; errors?: unknown[] } };

const PROGRESS_EVERY_MS = 500;

/** `file` with every byte it hands out counted (progress of a GeoParquet import). */
function countedReads(file: AsyncBuffer, onRead: (bytes: number) => void): AsyncBuffer {
  return {
    byteLength: file.byteLength,
    slice: async (start: number, end?: number) => {
      const bytes = await file.slice(start, end);
      onRead(bytes.byteLength);
      return bytes;
    },
  };
}

async function importFile(req: TImportRequest): Promise<Extract<TImportAnswer, { type: "done" }>> {
  const store = blobStore();
  let bytesDone = 0;
  let itemsDone = 0;
  let last = 0;
  const report = () => {
    const now = Date.now();
    if (now - last < PROGRESS_EVERY_MS) return;
    last = now;
    process.send!({ type: "progress", bytesDone, itemsDone } satisfies TImportAnswer);
  };
  async function* counted(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    for await (const c of chunks) {
      bytesDone += c.byteLength;
      report();
      yield c;
    }
  }
  // Bytes are counted on the first read only (a CSV is read twice, lib/layers/parse/layer-items.ts).
  let reads = 0;
  const source: TUploadSource =
    req.format === "geoparquet"
      ? { kind: "file", file: countedReads(await blobAsyncBuffer(store, req.uploadKey), (n) => ((bytesDone += n), report())) }
      : { kind: "stream", open: () => (reads++ === 0 ? counted(store.stream(req.uploadKey)) : store.stream(req.uploadKey)) };
  const parsed = await layerItems(req.format, source, { lonColumn: req.lonColumn, latColumn: req.latColumn, asTable: req.asTable });
  // The parsers refuse what Postgres cannot store, naming the item by its format's convention.
  async function* items() {
    for await (const item of parsed.items) {
      itemsDone++;
      if ((itemsDone & 1023) === 0) report();
      yield item;
    }
  }
  return { type: "done", fields: await storeLayerFile(items(), { kind: parsed.kind, fileKey: req.fileKey, tmpDir: req.tmpDir }) };
}

process.on("message", (req: TImportRequest) => {
  importFile(req)
    // The private temp folder goes whatever happened, also when parsing failed before any sorting.
    .finally(() => fs.rmSync(req.tmpDir, { recursive: true, force: true }))
    .then((answer) => process.send!(answer satisfies TImportAnswer))
    .catch((err: unknown) => {
      // The problem is stored with the import: its text names what the file holds, which may be anything.
      const problem =
        err instanceof AppError
          ? { code: err.code, detail: storableText(err.detail), errors: err.errors?.map(storableFieldError) }
          : { code: "internal", detail: "The file could not be imported because of an internal error." };
      if (!(err instanceof AppError)) console.error("[import] failed:", err);
      process.send!({ type: "failed", problem } satisfies TImportAnswer);
    });
});
process.on("disconnect", () => process.exit(0));
