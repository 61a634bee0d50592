/**
 * Per-column type inference for the Parquet writers, and the value conversions that go with it.
 *
 * A result's declared columns (lib/steps/columns.ts, derived from the flow) fix their types:
 * `integer` -> `int64` (INT64), `number` -> `double` (DOUBLE), `string` -> `string` (UTF8),
 * `boolean` -> `boolean` (BOOLEAN), also for a run whose column is empty or all null. Should a
 * run's values not fit the declared type (a table layer whose data differs from the input's
 * declaration; caller rows are checked at the door) the column is written as text for that
 * run rather than lose values (`columnTypeFor`).
 *
 * Columns of type `any` and columns not declared at all are inferred from the run's values
 * (every non-null value of the column; `null` and `undefined` are nulls and never decide the
 * type; every column is OPTIONAL, so nulls are always allowed):
 * - only booleans                                   -> `boolean`  (Parquet BOOLEAN)
 * - only integers (numbers with Number.isInteger, or bigints), all in [-2^63, 2^63-1]
 *                                                   -> `int64`    (INT64, whatever their size,
 *                                                      so a column does not switch between
 *                                                      INT32 and INT64 from run to run; numbers
 *                                                      above 2^53 are written as the exact
 *                                                      integer value the double holds)
 * - only numbers/bigints otherwise (a fraction, NaN, ±Infinity, an integer beyond int64)
 *                                                   -> `double`   (DOUBLE; bigints converted
 *                                                      with Number(), which may round)
 * - only strings                                    -> `string`   (BYTE_ARRAY, UTF8/STRING)
 * - no non-null value at all (or no rows)           -> `string`, all null
 * - anything else — a mix of kinds (e.g. numbers and strings, booleans and numbers), or
 *   objects/arrays/Dates                            -> `string`, each value rendered by
 *                                                      `scalarToText`.
 */

import type { TFieldType } from "@/lib/steps/columns";

export type TColumnType = "boolean" | "int64" | "double" | "string";

const INT64_MIN = -(2 ** 63);
const INT64_LIMIT = 2 ** 63; // exclusive: 2^63 itself does not fit
const BIG_INT64_MIN = -(2n ** 63n);
const BIG_INT64_MAX = 2n ** 63n - 1n;

/** Incremental inference: feed values with `add`, read the result with `type`. */
export class ColumnTypeInference {
  private sawBoolean = false;
  private sawString = false;
  private sawOther = false;
  private sawNumber = false;
  private allIntegers = true;
  private allInt64 = true;

  add(value: unknown): void {
    if (value === null || value === undefined) return;
    switch (typeof value) {
      case "boolean":
        this.sawBoolean = true;
        return;
      case "string":
        this.sawString = true;
        return;
      case "number":
        this.sawNumber = true;
        if (!Number.isInteger(value)) {
          this.allIntegers = false;
        } else if (value < INT64_MIN || value >= INT64_LIMIT) this.allInt64 = false;
        return;
      case "bigint":
        this.sawNumber = true;
        if (value < BIG_INT64_MIN || value > BIG_INT64_MAX) this.allInt64 = false;
        return;
      default:
        this.sawOther = true;
    }
  }

  /** No non-null value seen. */
  isEmpty(): boolean {
    return !(this.sawBoolean || this.sawString || this.sawNumber || this.sawOther);
  }

  /** Only strings among the non-null values (as opposed to a mix rendered as text). */
  onlyStrings(): boolean {
    return this.sawString && !this.sawBoolean && !this.sawNumber && !this.sawOther;
  }

  type(): TColumnType {
    const kinds = Number(this.sawBoolean) + Number(this.sawString) + Number(this.sawNumber) + Number(this.sawOther);
    if (kinds === 1 && this.sawBoolean) return "boolean";
    if (kinds === 1 && this.sawNumber) return this.allIntegers && this.allInt64 ? "int64" : "double";
    return "string";
  }
}

/**
 * The type a column is written with: its declared type when the run's values (seen by
 * `inference`) fit it, else (or for `any`/undeclared) the inferred one. Integers fit `number`.
 */
export function columnTypeFor(declared: TFieldType | undefined, inference: ColumnTypeInference): TColumnType {
  if (declared === undefined || declared === "any") return inference.type();
  if (inference.isEmpty()) return FIXED[declared];
  const inferred = inference.type();
  const fits =
    declared === "boolean"
      ? inferred === "boolean"
      : declared === "string"
        ? inference.onlyStrings()
        : declared === "integer"
          ? inferred === "int64"
          : inferred === "int64" || inferred === "double";
  return fits ? FIXED[declared] : "string";
}

const FIXED: Record<Exclude<TFieldType, "any">, TColumnType> = { integer: "int64", number: "double", string: "string", boolean: "boolean" };

/**
 * Text form of any value, used for `string` columns and for CSV fields:
 * null/undefined -> null; string as is; number via String() (shortest round-trip form, e.g.
 * "0.1", "1e+21", "NaN"); bigint decimal; boolean "true"/"false"; Date as ISO 8601
 * (toISOString, UTC; invalid dates -> null); anything else (objects, arrays) as JSON text
 * (bigints inside become decimal strings).
 */
export function scalarToText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "string":
      return value;
    case "number":
    case "bigint":
    case "boolean":
      return String(value);
    default:
      if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
      try {
        return JSON.stringify(value, bigintReplacer) ?? null;
      } catch {
        return String(value);
      }
  }
}

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}

/** Converts one value to what hyparquet-writer expects for a column of `type` (null stays null). */
export function toColumnValue(type: TColumnType, value: unknown): string | number | bigint | boolean | null {
  if (value === null || value === undefined) return null;
  switch (type) {
    case "boolean":
      return value as boolean;
    case "int64":
      return typeof value === "bigint" ? value : BigInt(value as number);
    case "double":
      return Number(value);
    case "string":
      return scalarToText(value);
  }
}

/** Own property value (never an inherited one such as `constructor`), undefined when absent. */
export function ownValue(record: Record<string, unknown> | null | undefined, key: string): unknown {
  return record && Object.hasOwn(record, key) ? record[key] : undefined;
}
