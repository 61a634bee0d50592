/**
 * Domain errors and their HTTP mapping. Domain code throws `ApiError(code, detail)`; the
 * route wrapper turns it into an RFC 9457 problem response. One map from code to status.
 */
export const ERROR_STATUS = {
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
} as const;

export type TErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_TITLE: Record<TErrorCode, string> = {
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
};

/** One faulty field: `field` is a JSON Pointer (RFC 6901) into the request. */
export interface TFieldError {
  field: string;
  code: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly code: TErrorCode,
    readonly detail: string,
    readonly extra: { errors?: TFieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = "ApiError";
  }
}

/** JSON Pointer (RFC 6901) from a path of keys and indexes. */
export function toPointer(path: readonly PropertyKey[]): string {
  return path.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}
