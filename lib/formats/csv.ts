/**
 * CSV writer for tables: RFC 4180 with CRLF line endings, UTF-8 without BOM, built with
 * csv-stringify in slices of rows gathered into bounded UTF-8 chunks.
 *
 * - First record: the header row, from `columns` in order.
 * - Every record ends with CRLF (RFC 4180 §2.1–2.2), including the last one.
 * - A field is quoted (with `"`, inner quotes doubled) when it contains a comma, a quote, CR or
 *   LF (RFC 4180 §2.6–2.7); other fields are written bare, spaces kept.
 * - Values: null/undefined (and a key missing from a row) -> empty field; strings as is;
 *   numbers via String() ("0.5", "1e+21", "NaN"); booleans "true"/"false"; bigints as decimal;
 *   Dates as ISO 8601 UTC; objects/arrays as JSON text. No spreadsheet formula escaping is
 *   applied: data is written as it is.
 * - An empty table still gets its header row; a table with no columns is an empty file.
 */
import { stringify } from "csv-stringify/sync";
import type { TTable } from "@/lib/engine/types";
import { Utf8Chunks, yieldToEventLoop } from "./byte-chunks";
import { ownValue, scalarToText } from "./column-types";

/** Line ending used by the CSV writer (RFC 4180). */
export const CSV_RECORD_DELIMITER = "\r\n";

/** Rows stringified between two yields to the event loop; small, so a slice's garbage dies young (lower peak memory). */
const ROWS_PER_SLICE = 2_048;

export interface TCsvOptions {
  /** Checked between slices of rows; an aborted signal rejects with its reason. */
  signal?: AbortSignal;
}

const STRINGIFY_OPTIONS = {
  delimiter: ",",
  quote: '"',
  escape: '"',
  record_delimiter: CSV_RECORD_DELIMITER,
  // csv-stringify stops quoting fields with a lone CR or LF once record_delimiter is set,
  // unless told to: RFC 4180 §2.6 wants every line break quoted.
  quote_record_delimiter: true,
  eof: true,
  header: false,
} as const;

/**
 * Encodes a table as RFC 4180 CSV (CRLF, UTF-8, header row from `columns`).
 *
 * @param table `{kind:"rows", columns, rows}`; keys not in `columns` are ignored.
 * @returns the UTF-8 bytes and the row count (data rows, header not counted).
 * @throws the signal's reason when aborted.
 */
export async function encodeCsv(table: TTable, options: TCsvOptions = {}): Promise<{ body: Uint8Array; rowCount: number }> {
  const { columns, rows } = table;
  const out = new Utf8Chunks();
  options.signal?.throwIfAborted();
  if (columns.length > 0) {
    out.push(stringify([columns], STRINGIFY_OPTIONS));
    for (let start = 0; start < rows.length; start += ROWS_PER_SLICE) {
      await yieldToEventLoop(options.signal);
      const end = Math.min(rows.length, start + ROWS_PER_SLICE);
      const records = new Array<string[]>(end - start);
      for (let r = start; r < end; r++) {
        const row = rows[r];
        records[r - start] = columns.map((column) => scalarToText(ownValue(row, column)) ?? "");
      }
      out.push(stringify(records, STRINGIFY_OPTIONS));
    }
  }
  return { body: out.finish(), rowCount: rows.length };
}
