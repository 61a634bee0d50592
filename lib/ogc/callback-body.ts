/**
 * The body of a callback to an OGC execute request's `subscriber` (OGC 18-062r2, requirements
 * class "callback", `execute.yaml` callbacks): `successUri` gets the results document, as
 * `GET /jobs/{jobId}/results` answers it (the outputs the request named, each by value or by
 * reference as it asked: the run's `ogcAnswer`); `inProgressUri` and `failedUri` get the job's
 * statusInfo.
 */
import "server-only";
import { ZOgcAnswer } from "@/lib/ogc/execute-request";
import { ogcResults } from "@/lib/ogc/results";
import { statusInfo } from "@/lib/ogc/status-info";
import type { TRunDocument } from "@/lib/runs/run-document";
import type { TStoredSubscriber } from "@/lib/runs/run-webhooks";

export async function ogcCallbackBody(doc: TRunDocument, subscriber: TStoredSubscriber, event: string, ogcAnswer: unknown): Promise<unknown> {
  const base = subscriber.base ?? "";
  if (event !== "run.completed" || doc.state !== "completed") return statusInfo(doc, base);
  // a callback carries JSON: the results document even when the request chose `response: "raw"`
  return ogcResults(doc, subscriber.origin ?? "", ZOgcAnswer.parse(ogcAnswer ?? {}));
}
