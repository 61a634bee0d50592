/**
 * The one domain error. Domain code (lib/runs, lib/keys, lib/flows, ...) throws
 * `AppError(code, detail)` and knows nothing of the door a call came through; each front
 * door maps the code: HTTP to an RFC 9457 problem (lib/http/problem.ts), MCP to a tool
 * error (lib/mcp), the browser to a message next to the field or a toast.
 *
 * Codes are stable API: they appear in problem documents (`code`, and the `type` URI) and
 * in the OpenAPI document, so a code is never renamed, only added. Each has an HTTP status
 * (`ERROR_STATUS`): the HTTP door answers with it, and the call log of every door counts a
 * refusal by it (lib/metering/call-counter.ts).
 */
import type { TFieldError } from "@/lib/errors/field-error";

/** Every error code: its short human title (RFC 9457 `title`) and its HTTP status (RFC 9110). */
const ERRORS = {
  bad_request: { title: "Bad request", status: 400 },
  unauthorized: { title: "Missing or invalid API key", status: 401 },
  forbidden: { title: "Access to this API is not granted", status: 403 },
  not_found: { title: "Not found", status: 404 },
  method_not_allowed: { title: "Method not allowed", status: 405 },
  conflict: { title: "Conflict with the current state", status: 409 },
  payload_too_large: { title: "Request body too large", status: 413 },
  unsupported_media_type: { title: "Unsupported media type", status: 415 },
  validation_failed: { title: "The request is invalid", status: 422 },
  idempotency_key_reused: { title: "Idempotency-Key reused with a different request", status: 422 },
  rate_limited: { title: "Too many requests", status: 429 },
  internal: { title: "Internal error", status: 500 },
  service_unavailable: { title: "Service unavailable", status: 503 },
  overloaded: { title: "Service overloaded", status: 503 },
} as const;

export type TErrorCode = keyof typeof ERRORS;
export const ERROR_CODE_LIST = Object.keys(ERRORS) as TErrorCode[];
/** The title of every error code. */
export const ERROR_CODES = Object.fromEntries(ERROR_CODE_LIST.map((c) => [c, ERRORS[c].title])) as Record<TErrorCode, string>;
/** The HTTP status of every error code. */
export const ERROR_STATUS = Object.fromEntries(ERROR_CODE_LIST.map((c) => [c, ERRORS[c].status])) as Record<TErrorCode, number>;

export interface TAppErrorOptions {
  /** `validation_failed` / `idempotency_key_reused`: every faulty field. */
  errors?: TFieldError[];
  /** `service_unavailable` / `overloaded` / `rate_limited`: when a retry makes sense, seconds. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class AppError extends Error {
  readonly errors?: TFieldError[];
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: TErrorCode,
    readonly detail: string,
    opts: TAppErrorOptions = {},
  ) {
    super(detail, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "AppError";
    this.errors = opts.errors;
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }
}

/** `validation_failed` listing `errors`, with a detail that counts them. */
export function validationError(errors: TFieldError[], detail?: string): AppError {
  const n = errors.length;
  return new AppError("validation_failed", detail ?? `The request has ${n} invalid field${n === 1 ? "" : "s"}; see errors.`, { errors });
}

/**
 * A list a user typed one entry per line (an environment's CORS origins, its outbound hosts):
 * each non-blank entry in its canonical form (`canonical` answers null for a bad one), without
 * duplicates, in order.
 *
 * @throws AppError `validation_failed` naming `/<name>/<index>` of every bad entry (`code`, and `message(entry)`).
 */
export function canonicalEntries(
  entries: readonly string[],
  canonical: (v: string) => string | null,
  name: string,
  code: string,
  message: (entry: string) => string,
): string[] {
  const errors: TFieldError[] = [];
  const out: string[] = [];
  entries.forEach((raw, i) => {
    if (raw.trim() === "") return;
    const value = canonical(raw);
    if (value === null) errors.push({ field: `/${name}/${i}`, code, message: message(raw.trim()) });
    else if (!out.includes(value)) out.push(value);
  });
  if (errors.length) throw validationError(errors, errors.map((e) => e.message).join(" "));
  return out;
}
