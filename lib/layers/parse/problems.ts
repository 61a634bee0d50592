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

/** The `validation_failed` error of a fault of the whole file (`/file`), after which reading stops. */
export const fileFault = (code: string, message: string) => validationError([{ field: "/file", code, message }]);

export class ProblemList {
  private readonly listed: TFieldError[] = [];
  private more = false;

  /** @param what Names the file in the error's detail, e.g. "The GeoJSON file". */
  constructor(private readonly what: string) {}

  add(error: TFieldError): void {
    if (this.listed.length < MAX_LISTED_PROBLEMS) this.listed.push(error);
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
