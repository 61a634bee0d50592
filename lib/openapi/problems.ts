/**
 * The RFC 9457 problem answers of the OpenAPI document: one reusable response per status,
 * each listing the error codes it carries as data (`x-error-codes`), and the code table of
 * the Problem schema (`x-error-codes: [{code, status, title}]`), both from the one code map
 * (lib/errors, lib/http/problem.ts) so the docs page never parses prose.
 */
import { ERROR_CODES, ERROR_CODE_LIST, ERROR_STATUS, type TErrorCode } from "@/lib/errors/app-error";

/** A JSON Reference into the OpenAPI document's components: `#/components/<kind>/<name>`. */
export const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** The problem responses a call can meet, by status, as component names. */
const PROBLEM_RESPONSES = {
  BadRequest: { status: 400, description: "The body is not valid JSON (problem `bad_request`)." },
  Unauthorized: {
    status: 401,
    description: "The X-Api-Key header is missing, or the key is unknown, revoked, expired or of another environment (problem `unauthorized`).",
  },
  Forbidden: { status: 403, description: "The key's consumer has no access grant for this API (problem `forbidden`)." },
  NotFound: {
    status: 404,
    description:
      "Not found (problem `not_found`): the API is not published in this environment, or the run does not exist or belongs to another consumer (indistinguishable).",
  },
  MethodNotAllowed: {
    status: 405,
    description:
      "The resource does not answer this method (problem `method_not_allowed`); `Allow` lists the methods it does. Every path answers it for methods it does not list.",
  },
  Conflict: { status: 409, description: "The run's state does not allow this (problem `conflict`)." },
  PayloadTooLarge: { status: 413, description: "The body exceeds the request size limit (problem `payload_too_large`)." },
  UnsupportedMediaType: { status: 415, description: "Content-Type is not application/json (problem `unsupported_media_type`)." },
  ValidationFailed: {
    status: 422,
    description:
      "The request is invalid (problem `validation_failed`, or `idempotency_key_reused` for an Idempotency-Key sent before with a different body). `errors` names every faulty field by JSON Pointer. No run is started and nothing is counted.",
  },
  InvalidQuery: {
    status: 422,
    codes: ["validation_failed"],
    description: "A query parameter is invalid (problem `validation_failed`). `errors` names each one as `/query/<name>`. Nothing is counted.",
  },
  TooManyRequests: { status: 429, description: "The key's rate limit is exhausted (problem `rate_limited`); retry after `Retry-After` seconds. Not counted." },
  InternalError: { status: 500, description: "An unexpected error (problem `internal`); no internals are disclosed." },
  ServiceUnavailable: {
    status: 503,
    description:
      "The service is temporarily unavailable (problem `service_unavailable`): database unreachable or not answering in time, or no worker to run flows (POST /runs only); or it has more requests in progress than it can take (problem `overloaded`). Retry after `Retry-After` seconds.",
  },
} satisfies Record<string, { status: number; description: string; codes?: TErrorCode[] }>;

export type TProblemResponse = keyof typeof PROBLEM_RESPONSES;

export function problemResponses(...names: TProblemResponse[]) {
  return Object.fromEntries(names.map((name) => [String(PROBLEM_RESPONSES[name].status), ref("responses", name)])) as Record<string, unknown>;
}

/** Every error code as data: `{code, status, title}`, in the order of the code map. */
export function errorCodeTable(): { code: TErrorCode; status: number; title: string }[] {
  return ERROR_CODE_LIST.map((code) => ({ code, status: ERROR_STATUS[code], title: ERROR_CODES[code] }));
}

/** `components.responses`: one problem response per status, with its codes as data. */
export function problemResponseComponents(stdHeaders: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(PROBLEM_RESPONSES).map(([name, r]) => [
      name,
      {
        description: r.description,
        "x-error-codes": "codes" in r ? r.codes : ERROR_CODE_LIST.filter((c) => ERROR_STATUS[c] === r.status),
        headers:
          r.status === 429 || r.status === 503
            ? { ...stdHeaders, "Retry-After": ref("headers", "Retry-After") }
            : r.status >= 400 && r.status !== 401 && r.status !== 404
              ? stdHeaders
              : {},
        content: { "application/problem+json": { schema: ref("schemas", "Problem") } },
      },
    ]),
  );
}
