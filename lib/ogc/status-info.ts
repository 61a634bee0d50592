/**
 * A run document (lib/runs/run-document.ts) as an OGC job: `statusInfo` (OGC 18-062r2
 * `statusInfo.yaml`) and the results document (`results.yaml`: each output by value as a
 * qualified value, or by reference as a link to the HTTP door's download).
 *
 * States: queued → accepted, running → running, completed → successful, failed → failed,
 * cancelled → dismissed.
 */
import type { TRunDocument } from "@/lib/runs/run-document";
import type { TRunState } from "@/lib/runs/run-state-names";
import { OGC_REL, type TOgcLink } from "@/lib/ogc/conformance";
import type { TTransmission } from "@/lib/ogc/execute-request";

/** The OGC job status of each run state. */
export const OGC_STATUS: Record<TRunState, "accepted" | "running" | "successful" | "failed" | "dismissed"> = {
  queued: "accepted",
  running: "running",
  completed: "successful",
  failed: "failed",
  cancelled: "dismissed",
};

/** Results at most this large are answered by value when the request did not choose. */
const INLINE_RESULT_MAX_BYTES = 5 * 1024 * 1024;

/** The job's address at the door (`base` is the door's absolute base URL). */
export function jobPath(base: string, jobId: string): string {
  return `${base}/jobs/${jobId}`;
}

/** The statusInfo of `doc`. */
export function statusInfo(doc: TRunDocument, base: string) {
  const self = jobPath(base, doc.run_id);
  const status = OGC_STATUS[doc.state];
  const { steps_done: done, steps_total: total } = doc.progress;
  const message =
    status === "failed" ? (doc.error?.message ?? "The run failed.") : status === "dismissed" ? "The job was dismissed." : `${done} of ${total} steps done.`;
  const links: TOgcLink[] = [{ href: self, rel: "self", type: "application/json", title: "Job status" }];
  if (status === "successful") links.push({ href: `${self}/results`, rel: OGC_REL.results, type: "application/json", title: "Job results" });
  links.push({ href: `${base}/processes/${doc.api}`, rel: "up", type: "application/json", title: "The process" });
  return {
    processID: doc.api,
    type: "process" as const,
    jobID: doc.run_id,
    status,
    message,
    created: doc.created_at,
    ...(doc.started_at ? { started: doc.started_at } : {}),
    ...(doc.finished_at ? { finished: doc.finished_at } : {}),
    updated: doc.finished_at ?? doc.started_at ?? doc.created_at,
    progress: status === "successful" ? 100 : total ? Math.floor((100 * done) / total) : 0,
    ...(doc.error ? { exception: { type: "run-failure", code: doc.error.code, detail: doc.error.message } } : {}),
    links,
  };
}

/** Whether result `key` of `size` bytes is answered by value. */
export function byValue(transmission: TTransmission, key: string, size: number): boolean {
  return (transmission[key] ?? (size <= INLINE_RESULT_MAX_BYTES ? "value" : "reference")) === "value";
}

/**
 * The results document of a completed run: by value, a GeoJSON result is the object, a text
 * result (CSV) the string, a binary one (Parquet) base64; by reference, a link to `origin` + the
 * result's `href` (the HTTP door's download, with the same key).
 */
export function resultsDocument(doc: TRunDocument, origin: string, transmission: TTransmission, contents: Map<string, Uint8Array>) {
  const out: Record<string, unknown> = {};
  for (const r of doc.results ?? []) {
    const content = contents.get(r.key);
    if (content && byValue(transmission, r.key, r.size_bytes)) {
      const text = () => Buffer.from(content).toString("utf8");
      if (r.format === "geojson") out[r.key] = { value: JSON.parse(text()), mediaType: r.media_type };
      else if (r.media_type.startsWith("text/")) out[r.key] = { value: text(), mediaType: r.media_type };
      else out[r.key] = { value: Buffer.from(content).toString("base64"), mediaType: r.media_type, encoding: "base64" };
    } else {
      out[r.key] = { href: origin + r.href, type: r.media_type, rel: "enclosure", title: r.key };
    }
  }
  return out;
}
