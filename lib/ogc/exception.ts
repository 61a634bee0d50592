/**
 * Errors as OGC API - Processes exceptions (OGC 18-062r2 `exception.yaml`: `type`, `title`,
 * `status`, `detail`, `instance`, which is RFC 9457 problem details): the standard's exception
 * types where it names one (no such process, no such job, result not ready), the service's
 * problem types (lib/http/problem.ts) for everything else, with the same `code` and `errors`.
 */
import type { TErrorCode, TFieldError } from "@/lib/errors";
import { problem } from "@/lib/http/problem";

const OGC_EXCEPTION = "http://www.opengis.net/def/exceptions/ogcapi-processes-1/1.0/";

/** Which OGC exception a not-found or conflict stands for at this door. */
export type TOgcExceptionKind = "no-such-process" | "no-such-job" | "result-not-ready";

const OGC_EXCEPTION_TITLES: Record<TOgcExceptionKind, string> = {
  "no-such-process": "No such process",
  "no-such-job": "No such job",
  "result-not-ready": "Result not ready",
};

/** The exception answer of `code` (`kind` when the standard names one). */
export function ogcException(
  code: TErrorCode,
  detail: string,
  opts: { kind?: TOgcExceptionKind; instance?: string; errors?: TFieldError[]; retryAfterSeconds?: number; headers?: Record<string, string> } = {},
): Response {
  const { kind, ...rest } = opts;
  return problem(code, detail, { ...rest, kind: kind && { type: OGC_EXCEPTION + kind, title: OGC_EXCEPTION_TITLES[kind] } });
}
