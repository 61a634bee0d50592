/**
 * The body of a callback to an OGC execute request's `subscriber` (OGC 18-062r2, requirements
 * class "callback", `execute.yaml` callbacks): `successUri` gets the results document, as
 * `GET /jobs/{jobId}/results` answers it (each output by value or by reference as the request
 * asked); `inProgressUri` and `failedUri` get the job's statusInfo.
 */
import "server-only";
import { byValue, resultsDocument, statusInfo } from "@/lib/ogc/status-info";
import { getResultFileContents } from "@/lib/runs/get-result-file";
import type { TRunDocument } from "@/lib/runs/run-document";
import type { TStoredSubscriber } from "@/lib/runs/run-webhooks";

export async function ogcCallbackBody(doc: TRunDocument, subscriber: TStoredSubscriber, event: string): Promise<unknown> {
  const base = subscriber.base ?? "";
  if (event !== "run.completed" || doc.state !== "completed") return statusInfo(doc, base);
  const transmission = subscriber.transmission ?? {};
  const wanted = (doc.results ?? []).filter((r) => byValue(transmission, r.key, r.size_bytes)).map((r) => ({ key: r.key, format: r.format }));
  const files = await getResultFileContents(doc.run_id, wanted);
  return resultsDocument(doc, subscriber.origin ?? "", transmission, new Map(files.map((f) => [f.key, f.content])));
}
