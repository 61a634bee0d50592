/**
 * Per-column type inference for the Parquet writers, and the value conversions that go with it.
 *
 * Rules (over every non-null value of the column; `null` and `undefined` are nulls and never
 * decide the type; every column is OPTIONAL, so nulls are always allowed):
 * - only booleans                                   -> `boolean`  (Parquet BOOLEAN)
 * - only integers (numbers with Number.isInteger, or bigints), all in [-2^31, 2^31-1]
 *                                                   -> `int32`    (INT32)
 * - only integers, all in [-2^63, 2^63-1]           -> `int64`    (INT64; numbers above 2^53
 *                                                      are written as the exact integer value
 *                                                      the double holds)
 * - only numbers/bigints otherwise (a fraction, NaN, ±Infinity, an integer beyond int64)
 *                                                   -> `double`   (DOUBLE; bigints converted
 *                                                      with Number(), which may round)
 * - only strings                                    -> `string`   (BYTE_ARRAY, UTF8/STRING)
 * - no non-null value at all (or no rows)           -> `string`, all null
 * - anything else — a mix of kinds (e.g. numbers and strings, booleans and numbers), or
 *   objects/arrays/Dates                            -> `string`, each value rendered by
 *                                                      `scalarToText`.
 */

export type TColumnType = "boolean" | "int32" | "int64" | "double" | "string";

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
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
  private allInt32 = true;
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
        } else if (value < INT32_MIN || value > INT32_MAX) {
          this.allInt32 = false;
          if (value < INT64_MIN || value >= INT64_LIMIT) this.allInt64 = false;
        }
        return;
      case "bigint":
        this.sawNumber = true;
        if (value < INT32_MIN || value > INT32_MAX) {
          this.allInt32 = false;
          if (value < BIG_INT64_MIN || value > BIG_INT64_MAX) this.allInt64 = false;
        }
        return;
      default:
        this.sawOther = true;
    }
  }

  type(): TColumnType {
    const kinds = Number(this.sawBoolean) + Number(this.sawString) + Number(this.sawNumber) + Number(this.sawOther);
    if (kinds !== 1) return "string";
    if (this.sawBoolean) return "boolean";
    if (this.sawNumber) {
      if (!this.allIntegers || !this.allInt64) return "double";
      return this.allInt32 ? "int32" : "int64";
    }
    return "string";
  }
}

/** Infers the type of one column from all its values (see the module rules). */
export function inferColumnType(values: Iterable<unknown>): TColumnType {
  const inference = new ColumnTypeInference();
  for (const value of values) inference.add(value);
  return inference.type();
}

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
    case "int32":
      return Number(value);
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
