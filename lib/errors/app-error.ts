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

/** Every error code with its short human title (RFC 9457 `title`). */
export const ERROR_CODES = {
  bad_request: "Bad request",
  unauthorized: "Missing or invalid API key",
  forbidden: "Access to this API is not granted",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  conflict: "Conflict with the current state",
  payload_too_large: "Request body too large",
  unsupported_media_type: "Unsupported media type",
  validation_failed: "The request is invalid",
  idempotency_key_reused: "Idempotency-Key reused with a different request",
  rate_limited: "Too many requests",
  internal: "Internal error",
  service_unavailable: "Service unavailable",
  overloaded: "Service overloaded",
} as const;

export type TErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as TErrorCode[];

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

/**
 * `err` with each field pointer mapped by `pointer`, for a door that names the fields of the
 * request the domain validated its own way (MCP arguments, OGC inputs); anything else as it is.
 */
export function withFieldPointers(err: unknown, pointer: (field: string) => string): unknown {
  if (!(err instanceof AppError) || !err.errors) return err;
  const errors = err.errors.map((e) => ({ ...e, field: pointer(e.field) }));
  return new AppError(err.code, err.detail, { errors, retryAfterSeconds: err.retryAfterSeconds });
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
  if (errors.length) throw new AppError("validation_failed", errors.map((e) => e.message).join(" "), { errors });
  return out;
}
