/**
 * Inputs by reference (`{"href": "https://…", "type"?: "<media type>"}`, lib/flows/href-input.ts),
 * worker side: checked at the door by lib/runs/check-run-request.ts (the web process never
 * fetches, nor loads this module), fetched and imported here when the run starts.
 *
 * - `importHrefInput` (the run `running`): GET with `outboundFetch` (every address
 *   checked at connect time, redirects checked hop by hop) within `RUN_INPUT_FETCH_SECONDS`;
 *   the body streamed into the blob store under the run's prefix,
 *   `runs/<run id>/input-files/<input>/download`, counted against the run's input budget
 *   (`RUN_MAX_INPUT_MB` for all its href inputs together, stopped as soon as it passes); then
 *   imported exactly like an upload, by the import process of lib/layers/run-layer-import.ts
 *   (parse, check, sort, GeoParquet) into `runs/<run id>/input-files/<input>/layer`, which the run
 *   reads like any layer (row groups skipped by bbox). The download is deleted at once; the
 *   layer file once the run's work is done, before its final state is written (lib/runs/execute-run.ts), or by
 *   the maintenance sweep after a crash (lib/runs/purge.ts). `input-files` cannot be a result
 *   key (keys are letters, digits and `_`), so these never meet a result's files.
 *
 * Failures name the input and the URL without its query string (which may be a signature, caller
 * data that must not outlive the run): `InputDataError` (`invalid_input`) for a refused address,
 * a network failure, an HTTP status other than 2xx ("Input `places`: GET https://host/a.geojson
 * answered 404 Not Found"), an unknown format, a file the import refuses, a file of the wrong
 * kind or geometry; `ResourceLimitError` (`resources_exhausted`) past the byte budget or the
 * time limit.
 */
import "server-only";
import fs from "node:fs";
import { STATUS_CODES } from "node:http";
import { blobStore } from "@/lib/blobs";
import { db } from "@/lib/db";
import { AbortError } from "@/lib/engine/errors";
import { env, privateTmpDir } from "@/lib/env";
import { InputDataError, ResourceLimitError, type TFieldError } from "@/lib/errors";
import type { TInput } from "@/lib/flows/definition";
import { HREF_ACCEPT, hrefFormat } from "@/lib/flows/href-input";
import { declaredGeometry, describeGeometry, geometryTypeFits, layerKindOf } from "@/lib/flows/input-geometry";
import type { THrefValue } from "@/lib/flows/run-request";
import { formatBytes, withinBudget, type TByteBudget } from "@/lib/layers/parse";
import { ImportFailed, importInChild } from "@/lib/layers/run-layer-import";
import { OutboundUrlError, outboundFetch } from "@/lib/net/outbound-fetch";
import { readOutboundHosts } from "@/lib/net/outbound-hosts";
import { runPrefix } from "@/lib/runs/result-blobs";
import type { TLayerRef } from "@/lib/runs/run-task";

/** Where a run's href inputs live in the blob store (under the run's prefix). */
export const inputFilesPrefix = (runId: string) => `${runPrefix(runId)}input-files/`;

/** The URL as messages show it: without user info, query and fragment (a signature is caller data). */
export function shownUrl(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname}${u.search ? "?…" : ""}`;
  } catch {
    return "(not a URL)";
  }
}

/** Bytes the href inputs of one run may still take. */
export interface TInputBudget extends TByteBudget {
  limit: number;
}

/** A run's input budget from `RUN_MAX_INPUT_MB`. */
export function inputBudget(): TInputBudget {
  const limit = env().RUN_MAX_INPUT_MB * 1024 * 1024;
  return { bytesLeft: limit, limit };
}

function isTimeout(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { name?: unknown }).name === "TimeoutError";
}

/** The first field errors of an import's problem, for a run's one-line message. */
function problemText(problem: ImportFailed["problem"]): string {
  const listed = (problem.errors ?? []) as TFieldError[];
  const first = listed
    .slice(0, 3)
    .map((e) => `${e.field}: ${e.message}`)
    .join("; ");
  return first ? `${problem.detail} ${first}${listed.length > 3 ? "; …" : ""}` : problem.detail;
}

/**
 * Fetches the file of one href input and imports it as the run's layer (see module doc).
 * `signal` is the run's (a cancel aborts the fetch or the import).
 */
export async function importHrefInput(args: {
  runId: string;
  input: Pick<TInput, "name" | "kind" | "geometry">;
  value: THrefValue;
  allowHosts: readonly string[];
  budget: TInputBudget;
  signal: AbortSignal;
}): Promise<TLayerRef> {
  const { runId, input, value, budget } = args;
  const seconds = env().RUN_INPUT_FETCH_SECONDS;
  const url = shownUrl(value.href);
  const label = `Input \`${input.name}\``;
  const dir = `${inputFilesPrefix(runId)}${input.name}/`;
  const downloadKey = `${dir}download`;
  const fileKey = `${dir}layer`;
  const store = blobStore();
  const timedOut = () => new ResourceLimitError(`${label}: GET ${url} did not finish within ${seconds} s.`, `input fetch time ${seconds} s`);
  const tooLarge = () =>
    new ResourceLimitError(
      `${label}: ${url} is larger than the ${formatBytes(budget.limit)} the inputs of a run may take together (RUN_MAX_INPUT_MB).`,
      `inputs by reference ${formatBytes(budget.limit)}`,
    );

  let format: ReturnType<typeof hrefFormat>;
  try {
    const res = await outboundFetch(value.href, {
      allowHosts: args.allowHosts,
      timeoutMs: seconds * 1000,
      signal: args.signal,
      headers: { accept: HREF_ACCEPT },
    });
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel().catch(() => {});
      throw new InputDataError(`${label}: GET ${url} answered ${res.status} ${STATUS_CODES[res.status] ?? res.statusText}.`, input.name);
    }
    format = hrefFormat(res.headers.get("content-type"), value.type, value.href);
    if (!format) {
      await res.body?.cancel().catch(() => {});
      throw new InputDataError(
        `${label}: cannot tell the format of ${url} (Content-Type ${res.headers.get("content-type") ?? "absent"}); give "type" (for example "application/geo+json", "text/csv").`,
        input.name,
      );
    }
    const declared = Number(res.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > budget.bytesLeft) {
      await res.body?.cancel().catch(() => {});
      throw tooLarge();
    }
    if (!res.body) throw new InputDataError(`${label}: GET ${url} answered ${res.status} without a body.`, input.name);
    await store.put(downloadKey, withinBudget(res.body, budget, tooLarge), { contentType: "application/octet-stream", signal: args.signal });
  } catch (err) {
    await store.delete(downloadKey).catch(() => {});
    if (err instanceof InputDataError || err instanceof ResourceLimitError) throw err;
    if (args.signal.aborted) throw err; // the run was cancelled: an abort, not a failure
    if (isTimeout(err)) throw timedOut();
    if (err instanceof OutboundUrlError) throw new InputDataError(`${label}: GET ${url} refused: ${err.reason}`, input.name);
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (err as Error).message;
    throw new InputDataError(`${label}: GET ${url} failed (${why}).`, input.name);
  }

  const tmpDir = privateTmpDir("inputs", runId, input.name);
  let fields;
  try {
    // a CSV for a table input is that table, longitude/latitude columns included (nearby-cities' places)
    const asTable = input.kind === "table";
    fields = (await importInChild({ type: "import", uploadKey: downloadKey, fileKey, format, asTable, tmpDir }, () => {}, args.signal)).fields;
  } catch (err) {
    await store.delete(fileKey).catch(() => {});
    if (args.signal.aborted) throw new AbortError(); // cancelled: the import process was killed, no failure of its own
    if (!(err instanceof ImportFailed)) throw err;
    if (err.problem.code === "payload_too_large") throw new ResourceLimitError(`${label}: ${err.problem.detail}`, "layer import");
    if (err.problem.code === "internal") throw new Error(`importing input ${input.name} failed: ${err.problem.detail}`);
    throw new InputDataError(`${label}: ${url} cannot be used: ${problemText(err.problem)}`, input.name);
  } finally {
    fs.rmSync(tmpDir, { recursive: true, force: true });
    await store.delete(downloadKey).catch(() => {});
  }

  const wantedKind = layerKindOf(input);
  if (wantedKind !== null && fields.kind !== wantedKind) {
    const holds = fields.kind === "features" ? "features (a table input takes a CSV file)" : "a table (no longitude/latitude columns found)";
    throw new InputDataError(`${label}: ${url} holds ${holds}; the input needs a ${input.kind}.`, input.name);
  }
  const declared = declaredGeometry(input);
  const misfits = fields.geometryTypes.filter((t) => !geometryTypeFits(declared, t));
  if (misfits.length > 0) {
    throw new InputDataError(`${label}: ${url} holds ${fields.geometryTypes.join(", ")} features; the input needs ${describeGeometry(declared)}.`, input.name);
  }
  return {
    id: `href:${input.name}`,
    fileKey,
    kind: fields.kind,
    itemCount: fields.itemCount,
    bbox: fields.bbox,
    columns: fields.columns.map((c) => c.name),
  };
}

/** Reads the allow-list of a run's environment (the worker's side of the door's check, lib/runs/check-run-request.ts); none for a designer's run. */
export async function runAllowHosts(runId: string): Promise<string[]> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { environmentId: true } });
  return run?.environmentId ? readOutboundHosts(run.environmentId) : [];
}
