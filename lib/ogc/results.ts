/**
 * A completed run's results as an OGC execute request asked for them (lib/ogc/execute-request.ts
 * `TOgcAnswer`): the synchronous answer, a later `GET /jobs/{jobId}/results` and the
 * `successUri` callback all give the same outputs, each by value or by reference.
 */
import "server-only";
import type { TOgcAnswer } from "@/lib/ogc/execute-request";
import { byValue, resultsDocument } from "@/lib/ogc/status-info";
import { getResultFileContents } from "@/lib/runs/get-result-file";
import type { TRunDocument } from "@/lib/runs/run-document";

/** The results of `doc` that `answer` names, in the run's order (all when it names none: OGC 18-062r2, /req/core/process-execute-default-outputs). */
export function answeredResults(doc: TRunDocument, answer: TOgcAnswer): NonNullable<TRunDocument["results"]> {
  const results = doc.results ?? [];
  return answer.outputs ? results.filter((r) => answer.outputs!.includes(r.key)) : results;
}

/** The files of the results of `doc` that `answer` names and sends by value: result key -> bytes. */
export async function inlineContents(doc: TRunDocument, answer: TOgcAnswer): Promise<Map<string, Uint8Array>> {
  const wanted = answeredResults(doc, answer).filter((r) => byValue(answer.transmission, r.key, r.size_bytes));
  const files = await getResultFileContents(
    doc.run_id,
    wanted.map((r) => ({ key: r.key, format: r.format })),
  );
  return new Map(files.map((f) => [f.key, f.content]));
}

/** The results document (`results.yaml`) of a completed run as `answer` asks; links are absolute on `origin`. */
export async function ogcResults(doc: TRunDocument, origin: string, answer: TOgcAnswer): Promise<Record<string, unknown>> {
  const named = { ...doc, results: answeredResults(doc, answer) };
  return resultsDocument(named, origin, answer.transmission, await inlineContents(doc, answer));
}
