/**
 * The OGC door's answers that carry a run: execution (synchronous or asynchronous by the
 * `Prefer` header, RFC 7240), job status, job results. Each loads and starts runs with the
 * same domain functions as the HTTP door (createRun, waitForRun, getRunOrThrow) and maps the
 * run document with lib/ogc/status-info.ts.
 */
import "server-only";
import { MAX_WAIT_SECONDS } from "@/lib/flows/run-request";
import { parsePrefer } from "@/lib/http/prefer";
import { keyRunLinks, queuedRun } from "@/lib/http/run-response";
import type { TOgcPlace } from "@/lib/ogc/ogc-route";
import type { TKeyCaller } from "@/lib/keys/served-apis";
import { ogcException } from "@/lib/ogc/exception";
import { toRunRequest, ZOgcAnswer, type TExecuteRequest, type TOgcAnswer } from "@/lib/ogc/execute-request";
import { answeredResults, inlineContents, ogcResults } from "@/lib/ogc/results";
import { byValue, jobPath, statusInfo } from "@/lib/ogc/status-info";
import { createRun } from "@/lib/runs/create-run";
import { runDocument, type TRunDocument, type TRunRow } from "@/lib/runs/run-document";
import { checkRunRequest } from "@/lib/runs/check-run-request";
import { waitForRun } from "@/lib/runs/wait-for-run";

const JSON_HEADERS = { "content-type": "application/json", "cache-control": "no-store" };

/** The run document of `run` as the HTTP door would show it. */
export function ogcRunDocument(caller: TKeyCaller, run: TRunRow & { flowVersion?: { version: number } | null }): TRunDocument {
  return runDocument(run, keyRunLinks(caller), run.flowVersion?.version ?? caller.target.flowVersionNumber);
}

/** A job's statusInfo answer (`status`: 200, or 201 with `Location` for a job just created). */
export function statusAnswer(doc: TRunDocument, place: TOgcPlace, status = 200, extra: Record<string, string> = {}): Response {
  const headers: Record<string, string> = { ...JSON_HEADERS, ...extra };
  if (status === 201) headers.location = jobPath(place.base, doc.run_id);
  return new Response(JSON.stringify(statusInfo(doc, place.base)), { status, headers });
}

/**
 * A completed run's results as the execute request asked (`answer`, lib/ogc/results.ts): the
 * results document, or with `response: "raw"` the outputs themselves (`rawAnswer`).
 */
async function resultsAnswer(doc: TRunDocument, place: TOgcPlace, answer: TOgcAnswer, extra: Record<string, string> = {}): Promise<Response> {
  if (answer.response === "raw") return rawAnswer(doc, place, answer, extra);
  return new Response(JSON.stringify(await ogcResults(doc, place.origin, answer)), { status: 200, headers: { ...JSON_HEADERS, ...extra } });
}

/** Field pointers of the HTTP door's request body as the execute request names them. */
function ogcPointer(field: string, parameterIds: Map<string, string>): string {
  const [, top, name, ...rest] = field.split("/");
  if (top === "parameters" && name !== undefined) {
    const id = [...parameterIds].find(([, n]) => n === name)?.[0] ?? name;
    return ["", "inputs", id, ...rest].join("/");
  }
  if (top === "formats" && name !== undefined) return `/outputs/${name}/format/mediaType`;
  return field;
}

/**
 * `POST /processes/{api}/execution`: starts a run of the caller's API from `exec`; with
 * `Prefer: respond-async` answers 201 at once (statusInfo, `Location`); otherwise waits up to
 * `wait=` (or the longest wait the HTTP door allows) and answers 200 with the results when the
 * run completed, else 201 with its status (it goes on as a job, or failed).
 */
export async function executeAnswer(
  caller: TKeyCaller,
  place: TOgcPlace,
  req: Request,
  exec: TExecuteRequest,
  parameterIds: Map<string, string>,
): Promise<Response> {
  const flow = caller.target.flow;
  const { body, answer, errors } = toRunRequest(flow, exec);
  const request = await checkRunRequest(caller.scope, caller.target, body, { prior: errors, pointer: (field) => ogcPointer(field, parameterIds) });
  const prefs = parsePrefer(req.headers.get("prefer"));
  const callbacks = { door: "ogc" as const, base: place.base, origin: place.origin };
  const { runId, created } = await createRun(caller.scope, caller.target, request, req.headers.get("idempotency-key"), { callbacks, ogcAnswer: answer });
  if (prefs.respondAsync) {
    const run = created ? queuedRun(runId, created) : await waitForRun(runId, 0);
    return statusAnswer(ogcRunDocument(caller, run), place, 201, { "preference-applied": "respond-async" });
  }
  const wait = Math.min(prefs.wait ?? MAX_WAIT_SECONDS, MAX_WAIT_SECONDS);
  const applied: Record<string, string> = prefs.wait !== null ? { "preference-applied": `wait=${wait}` } : {};
  const doc = ogcRunDocument(caller, await waitForRun(runId, wait * 1000));
  if (doc.state === "completed") return resultsAnswer(doc, place, answer, applied);
  return statusAnswer(doc, place, 201, applied);
}

/**
 * A completed synchronous execution with `response: "raw"` (OGC 18-062r2, 7.11.4): one output
 * by value is the file itself with its media type; outputs all by reference are a 204 with a
 * `Link` header per output (RFC 8288); several outputs are `multipart/related` (RFC 2387), a
 * part per output, a by-reference part empty with its `Content-Location`. Only the outputs the
 * request named (all when it named none). A later `GET /jobs/{jobId}/results` answers the same
 * (/req/core/job-results-async-raw-value-one, -value-multi, -ref, -mixed-multi).
 */
async function rawAnswer(doc: TRunDocument, place: TOgcPlace, answer: TOgcAnswer, extra: Record<string, string>) {
  const results = answeredResults(doc, answer);
  const inline = results.filter((r) => byValue(answer.transmission, r.key, r.size_bytes));
  const contents = await inlineContents(doc, answer);
  const headers = { "cache-control": "no-store", ...extra };
  if (inline.length === 0) {
    const links = results.map((r) => `<${place.origin}${r.href}>; rel="enclosure"; type="${r.media_type}"; title="${r.key}"`);
    return new Response(null, { status: 204, headers: { ...headers, link: links.join(", ") } });
  }
  if (results.length === 1) {
    const r = results[0]!;
    return new Response(Buffer.from(contents.get(r.key) ?? new Uint8Array()), { status: 200, headers: { ...headers, "content-type": r.media_type } });
  }
  const boundary = `ogc-${doc.run_id}`;
  const parts: (string | Uint8Array)[] = [];
  for (const r of results) {
    const content = contents.get(r.key);
    parts.push(`--${boundary}\r\nContent-ID: <${r.key}>\r\n`);
    if (content) parts.push(`Content-Type: ${r.media_type}\r\n\r\n`, content, "\r\n");
    else parts.push(`Content-Type: ${r.media_type}\r\nContent-Location: ${place.origin}${r.href}\r\n\r\n\r\n`);
  }
  parts.push(`--${boundary}--\r\n`);
  const body = Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p)));
  return new Response(body, {
    status: 200,
    headers: { ...headers, "content-type": `multipart/related; boundary=${boundary}; type="${results[0]!.media_type}"` },
  });
}

/**
 * `GET /jobs/{jobId}/results`: the results of a completed job as its execute request asked
 * (`ogcAnswer`, the run's as stored; a run started at another door has none: every output, as
 * a document, by value up to a size); a failed one's failure; `result-not-ready` before.
 */
export async function jobResultsAnswer(doc: TRunDocument, place: TOgcPlace, ogcAnswer: unknown): Promise<Response> {
  if (doc.state === "completed") return resultsAnswer(doc, place, ZOgcAnswer.parse(ogcAnswer ?? {}));
  if (doc.state === "failed")
    return ogcException("conflict", `The job failed: ${doc.error?.message ?? "no results"}.`, { instance: `${jobPath(place.base, doc.run_id)}/results` });
  if (doc.state === "cancelled")
    return ogcException("conflict", "The job was dismissed; it has no results.", { instance: `${jobPath(place.base, doc.run_id)}/results` });
  return ogcException("not_found", `The job is ${statusInfo(doc, place.base).status}; its results are not ready yet.`, {
    kind: "result-not-ready",
    instance: `${jobPath(place.base, doc.run_id)}/results`,
  });
}
