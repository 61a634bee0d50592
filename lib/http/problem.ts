/**
 * RFC 9457 problem details for the HTTP front door: `application/problem+json` with
 * `type`, `title`, `status`, `detail`, `instance`, our `code`, and `errors` (each faulty
 * field by JSON Pointer) on 422. `type` is a stable URI per error code
 * (`https://flow-api.dev/problems/<code with dashes>`), documented in the README.
 *
 * The one map from domain error code to HTTP status lives here; the OpenAPI document
 * lists the same codes from it as structured data (`x-error-codes`).
 */
import { z } from "zod";
import { ERROR_CODES, ERROR_CODE_LIST, type TErrorCode } from "@/lib/errors/app-error";
import { ZFieldError, type TFieldError } from "@/lib/errors/field-error";

/** HTTP status of every error code (RFC 9110). */
export const ERROR_STATUS: Record<TErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  service_unavailable: 503,
  overloaded: 503,
};

export const PROBLEM_TYPE_BASE = "https://flow-api.dev/problems/";

/** The `type` URI of a code. */
export function problemType(code: TErrorCode): string {
  return PROBLEM_TYPE_BASE + code.replace(/_/g, "-");
}

export const ZProblem = z
  .object({
    type: z.url().describe(`${PROBLEM_TYPE_BASE}<code with dashes>`),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    instance: z.string().optional().describe("Path of the request."),
    code: z.enum(ERROR_CODE_LIST),
    errors: z.array(ZFieldError).optional().describe("422 only: one entry per faulty field."),
  })
  .describe("RFC 9457 problem details.");

export type TProblem = z.infer<typeof ZProblem>;

/** Headers some codes always carry (RFC 9110 / RFC 7235). */
function headersFor(code: TErrorCode, retryAfterSeconds: number | undefined): Record<string, string> {
  const h: Record<string, string> = {};
  if (code === "unauthorized") h["www-authenticate"] = 'ApiKey header="X-Api-Key"';
  if (code === "unsupported_media_type") h["accept-post"] = "application/json";
  if (retryAfterSeconds !== undefined) h["retry-after"] = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  return h;
}

/** Builds a problem response for `code`. */
export function problem(
  code: TErrorCode,
  detail: string,
  opts: { instance?: string; errors?: TFieldError[]; retryAfterSeconds?: number; headers?: Record<string, string> } = {},
): Response {
  const status = ERROR_STATUS[code];
  const body: TProblem = {
    type: problemType(code),
    title: ERROR_CODES[code],
    status,
    detail,
    ...(opts.instance ? { instance: opts.instance } : {}),
    code,
    ...(opts.errors ? { errors: opts.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store", ...headersFor(code, opts.retryAfterSeconds), ...opts.headers },
  });
}
