/**
 * Errors as OGC API - Processes exceptions (OGC 18-062r2 `exception.yaml`: `type`, `title`,
 * `status`, `detail`, `instance`, which is RFC 9457 problem details): the standard's exception
 * types where it names one (no such process, no such job, result not ready), the service's
 * problem types (lib/http/problem.ts) for everything else, with the same `code` and `errors`.
 */
import { ERROR_CODES, ERROR_STATUS, type TErrorCode, type TFieldError } from "@/lib/errors";
import { problemType } from "@/lib/http/problem";

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
  opts: { kind?: TOgcExceptionKind; instance?: string; errors?: TFieldError[]; headers?: Record<string, string> } = {},
): Response {
  const status = ERROR_STATUS[code];
  const body = {
    type: opts.kind ? OGC_EXCEPTION + opts.kind : problemType(code),
    title: opts.kind ? OGC_EXCEPTION_TITLES[opts.kind] : ERROR_CODES[code],
    status,
    detail,
    ...(opts.instance ? { instance: opts.instance } : {}),
    code,
    ...(opts.errors ? { errors: opts.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store", ...opts.headers },
  });
}
