/**
 * Errors raised by the result writers. Callers (worker, API) map `FormatMismatchError` to a
 * 400/422-style validation error; `EncodeError` means the data itself cannot be written
 * (e.g. an invalid geometry) and is a run failure.
 */

/** The requested format does not exist or does not fit the result's kind. */
export class FormatMismatchError extends Error {
  override name = "FormatMismatchError";
}

/** The data cannot be encoded in the requested format (message names the feature/row and why). */
export class EncodeError extends Error {
  override name = "EncodeError";
}
