/**
 * What the upload route (`POST .../layers`, app/api/design/.../layers/route.ts) answers for an
 * import that failed: `importFailureError(problem)` turns the problem stored with the import
 * (`TLayerImportDocument["error"]`, lib/layers/layer-imports.ts: `{code, detail, errors?}`) back
 * into the AppError the import process ended with, so the HTTP door maps it to its own status
 * (RFC 9457 problem): a client error code (`validation_failed` 422, `payload_too_large` 413,
 * `bad_request` 400, any other 4xx of lib/errors) keeps its code, detail and field errors;
 * `internal`, a server code or a code this version does not know becomes `internal` (500),
 * with the stored detail, which never carries internals (the import process writes a fixed one).
 */
import { AppError, ERROR_CODE_LIST, ERROR_STATUS, type TErrorCode, type TFieldError } from "@/lib/errors";

/** A failed import's stored problem. */
export interface TImportProblem {
  code: string;
  detail: string;
  errors?: TFieldError[];
}

const isClientCode = (code: string): code is TErrorCode =>
  (ERROR_CODE_LIST as readonly string[]).includes(code) && ERROR_STATUS[code as TErrorCode] >= 400 && ERROR_STATUS[code as TErrorCode] < 500;

/** The AppError for a failed import's problem (see module doc). */
export function importFailureError(problem: TImportProblem): AppError {
  return new AppError(isClientCode(problem.code) ? problem.code : "internal", problem.detail, { errors: problem.errors });
}
