/**
 * CSV writer for tables: RFC 4180 with CRLF line endings, UTF-8 without BOM, written record by
 * record (each row's cells read from the table's columns) in slices of rows into ~1 MiB UTF-8
 * chunks (`Utf8Chunks`), each handed to the sink as soon as it is full.
 *
 * - First record: the header row, from `columns` in order.
 * - Every record ends with CRLF (RFC 4180 §2.1–2.2), including the last one.
 * - A field is quoted (with `"`, inner quotes doubled) when it contains a comma, a quote, CR or
 *   LF (RFC 4180 §2.6–2.7); other fields are written bare, spaces kept.
 * - Values: null/undefined (a cell the row does not have) -> empty field; strings as is; numbers via String() ("0.5", "1e+21", "NaN": the shortest text that
 *   reads back as the same double); booleans "true"/"false"; bigints as decimal; Dates as
 *   ISO 8601 UTC; objects/arrays as JSON text. No spreadsheet formula escaping is applied: data
 *   is written as it is.
 * - An empty table still gets its header row; a table with no columns is an empty file.
 */
import type { TTable } from "@/lib/engine/types";
import { Utf8Chunks, yieldToEventLoop, type TStreamOptions } from "../byte-chunks";
import { scalarToText } from "../column-types";

/** Line ending used by the CSV writer (RFC 4180). */
export const CSV_RECORD_DELIMITER = "\r\n";

/** Rows written between two yields to the event loop. */
const ROWS_PER_SLICE = 2_048;

/** Characters that make a field quoted (RFC 4180 §2.6): comma, quote, CR, LF. */
const NEEDS_QUOTES = /[",\r\n]/;
const QUOTE = /"/g;

/** One field: bare, or quoted with inner quotes doubled (RFC 4180 §2.7). */
function field(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(QUOTE, '""')}"` : text;
}

/** The text of one field holding `value` (see the module doc). */
function fieldText(value: unknown): string {
  if (typeof value === "number") return String(value);
  return field(typeof value === "string" ? value : (scalarToText(value) ?? ""));
}

/** Record `r` of `table`: its cells in column order, commas between, CRLF at the end. */
function record(table: TTable, r: number): string {
  const fields = new Array<string>(table.values.length);
  for (let c = 0; c < fields.length; c++) fields[c] = fieldText(table.values[c]![r]);
  return fields.join(",") + CSV_RECORD_DELIMITER;
}

/**
 * Encodes a table as RFC 4180 CSV (CRLF, UTF-8, header row from `columns`).
 *
 * @param table `{kind:"rows", columns, values, length}`.
 * @returns the UTF-8 bytes (empty with `options.sink`) and the row count (data rows, header not counted).
 * @throws the signal's reason when aborted.
 */
export async function encodeCsv(table: TTable, options: TStreamOptions = {}): Promise<{ body: Uint8Array; rowCount: number }> {
  const { columns, length } = table;
  const out = new Utf8Chunks(options.sink, options.alloc);
  options.signal?.throwIfAborted();
  if (columns.length > 0) {
    out.push(columns.map(field).join(",") + CSV_RECORD_DELIMITER);
    for (let start = 0; start < length; start += ROWS_PER_SLICE) {
      await yieldToEventLoop(options.signal, options.pace);
      const end = Math.min(length, start + ROWS_PER_SLICE);
      for (let r = start; r < end; r++) out.push(record(table, r));
    }
  }
  return { body: out.finish(), rowCount: length };
}
