/**
 * The problems found in an upload while it streams: the parsers collect them until there are
 * more than `MAX_LISTED_PROBLEMS` (20), then stop reading, so a broken 2 GiB file fails after its
 * first bad items instead of after all of them. The error thrown is AppError
 * `validation_failed` (`validationError` from lib/errors) whose `errors` list at most 20 field
 * errors, each naming its place in the file by JSON Pointer (`/file/features/12/geometry/...`,
 * `/file/rows/3/lon`), and whose detail says how many were found:
 * "The GeoJSON file has 2 problems." / "... has more than 20 problems (first 20 listed)."
 */
import { validationError, type AppError, type TFieldError } from "@/lib/errors";

/** Most problems listed in one error. */
export const MAX_LISTED_PROBLEMS = 20;

/**
 * `text` with every character Postgres cannot store (NUL, an unpaired UTF-16 surrogate; see
 * lib/errors/unstorable.ts) written as its JSON escape (`\u0000`, `\ud800`), other text as is.
 * A problem is stored with the import (its field and message name what the file holds, and a
 * file may hold anything), so every problem passes through this.
 */
export function storableText(text: string): string {
  if (!text.includes("\u0000") && text.isWellFormed()) return text;
  return text.replace(
    /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** `error` with its field and message made storable (`storableText`). */
export const storableFieldError = (error: TFieldError): TFieldError => ({
  ...error,
  field: storableText(error.field),
  code: storableText(error.code),
  message: storableText(error.message),
});

/** The `validation_failed` error of a fault of the whole file (`/file`), after which reading stops. */
export const fileFault = (code: string, message: string) => validationError([storableFieldError({ field: "/file", code, message })]);

export class ProblemList {
  private readonly listed: TFieldError[] = [];
  private more = false;

  /** @param what Names the file in the error's detail, e.g. "The GeoJSON file". */
  constructor(private readonly what: string) {}

  add(error: TFieldError): void {
    if (this.listed.length < MAX_LISTED_PROBLEMS) this.listed.push(storableFieldError(error));
    else this.more = true;
  }

  /** The error listing what was found so far (call when something was). */
  error(): AppError {
    const n = this.listed.length;
    const detail = this.more
      ? `${this.what} has more than ${MAX_LISTED_PROBLEMS} problems (first ${MAX_LISTED_PROBLEMS} listed).`
      : `${this.what} has ${n} problem${n === 1 ? "" : "s"}.`;
    return validationError([...this.listed], detail);
  }

  /** Adds a fault after which reading cannot go on, and throws the error listing everything found. */
  fail(field: string, code: string, message: string): never {
    this.add({ field, code, message });
    throw this.error();
  }

  /** Throws when the list is full (mid-stream). */
  throwIfFull(): void {
    if (this.more) throw this.error();
  }

  /** Throws when anything was found (at the end of the stream). */
  throwIfAny(): void {
    if (this.listed.length > 0) throw this.error();
  }
}
