/**
 * A CSV upload (RFC 4180, a header row, UTF-8 with or without BOM) read as it arrives with
 * csv-parse's streaming parser: `parseCsvStream(chunks, { lonColumn?, latColumn? }, limits)`.
 *
 * - With longitude and latitude columns (named in the upload, or found by name:
 *   lon/lng/long/longitude/x and lat/latitude/y, case-insensitive) it yields point features
 *   (`kind` "features"), the other columns as properties; otherwise the rows themselves
 *   (`kind` "table", one object per row keyed by the header). `kind` and `columns` are known
 *   as soon as the header is read, before the first item.
 * - Values are yielded as read: strings, `""` for an empty cell. Whether a column holds
 *   numbers ("a column whose every non-empty value is a number is stored as numbers", and
 *   has one; an integer beyond ±(2^53 - 1), which a double cannot hold, makes its column text,
 *   wide-integers.ts) needs every row, so the decision is gathered while streaming (O(columns)
 *   memory) and read with `columnTypes()` once the items are exhausted; `typedCsvItem(item,
 *   types)` then turns `""` into null and numeric columns' values into numbers. Chosen over
 *   leaving inference to the layer writer because this rule is the CSV's own (`"007"` is the
 *   number 7 in a numeric column, `""` is null in every column), and the writer's spill pass
 *   can apply it while reading its spill back.
 * - Faults are named by row (1 = first data row) and column, for points and tables alike:
 *   `/file/rows/3/lon`, `Row 3, column "lon": "east" is not a longitude (-180..180).`; up to 20
 *   are listed and reading stops after the 21st. Rows with a fault are not yielded. A cell with
 *   a NUL character (which Postgres cannot store, lib/errors/unstorable.ts) is one
 *   (`nul_character`); a header cell with one stops the reading (`/file`).
 *
 * @throws AppError `validation_failed`: `/file` `invalid_csv` (csv-parse's message with the
 *   line; a row of unexpected length; a header of one column holding ";" or a tab, a file
 *   separated by them), `/file` `invalid_encoding` (a byte that is not UTF-8, RFC
 *   3629, named by line and byte offset: utf8.ts), `/file` `invalid_csv` "The CSV file has no header row.",
 *   `/file` `duplicate_column` or `nul_character` (in a column name), `/lonColumn` / `/latColumn`
 *   `unknown_column` or `required` (only one of them named), `/file/rows/<row>/<column>`
 *   `invalid_position` or `nul_character`, `/file`
 *   `too_many_rows` past `limits.maxItems`, `/file` `too_large` for a row past
 *   `maxItemBytes`; `payload_too_large` past `limits.maxBytes`; `/file` `required` for no bytes.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CsvError, parse } from "csv-parse";
import { AppError, jsonPointer, validationError } from "@/lib/errors";
import type { TFeature, TRow } from "@/lib/engine/types";
import { parseDecimalNumber } from "@/lib/steps/decimal-number";
import { countedChunks, DEFAULT_PARSE_LIMITS, formatBytes, type TParseLimits } from "./limits";
import { setOwn } from "@/lib/steps/dataset";
import { fileFault, ProblemList } from "./problems";
import { describeUtf8Fault, utf8Checked } from "./utf8";
import { isWideIntegerText } from "./wide-integers";

const LON_NAMES = ["lon", "lng", "long", "longitude", "x"];
const LAT_NAMES = ["lat", "latitude", "y"];

const noHeader = () => fileFault("invalid_csv", "The CSV file has no header row.");

/**
 * The fault of a header of one column holding ";" or a tab: a file separated by them (a
 * spreadsheet's locale, a TSV), which read with commas is one column, or fails on the next line
 * as "expect 1, got 3". Undefined for any other header.
 */
function otherSeparator(header: string[]) {
  const other = header.length === 1 ? [";", "\t"].find((d) => header[0]!.includes(d)) : undefined;
  if (!other) return undefined;
  const [them, by] = other === ";" ? ["semicolons", '";"'] : ["tabs", "tabs"];
  return fileFault(
    "invalid_csv",
    `The header has no comma but ${them} (${JSON.stringify(header[0])}): the file looks separated by ${by}. CSV uploads are separated by commas (RFC 4180); save the file with commas.`,
  );
}

/** Where a cell is named: rows counted from 1 (the first row after the header), the column by name. */
const cellField = (row: number, column: string) => `/file${jsonPointer(["rows", row, column])}`;

const NUL_TEXT = "the text contains a NUL character (\\u0000), which cannot be stored; remove it.";

export type TCsvColumnType = "number" | "string";

export interface TCsvOptions {
  /** The longitude / latitude columns (found by name when absent). */
  lonColumn?: string;
  latColumn?: string;
  /** Every row a row of a table, longitude/latitude columns or not (a table input by reference). */
  asTable?: boolean;
}

/** A CSV cell as stored: null when empty, a number in a numeric column, else the text. */
export function csvValue(raw: string, type: TCsvColumnType | undefined): string | number | null {
  return raw === "" ? null : type === "number" ? parseDecimalNumber(raw) : raw;
}

/** An item of `parseCsvStream` with its values converted by `csvValue` (a new object; the item is not changed). */
export function typedCsvItem<T extends TFeature | TRow>(item: T, types: Record<string, TCsvColumnType>): T {
  const convert = (values: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(values)) setOwn(out, key, csvValue(values[key] as string, types[key]));
    return out;
  };
  if ((item as TFeature).type === "Feature" && "geometry" in item) return { ...item, properties: convert((item as TFeature).properties) } as T;
  return convert(item as TRow) as T;
}

/** One CSV upload being read: iterate it once for its items, then ask `columnTypes()`. */
export class CsvLayerStream implements AsyncIterable<TFeature | TRow> {
  /** The header, once read. */
  columns: string[] | undefined;
  /** "features" when longitude and latitude columns were found, else "table"; once the header is read. */
  kind: "features" | "table" | undefined;
  private numeric: boolean[] = [];
  private filled: boolean[] = [];
  private done = false;
  private used = false;

  constructor(
    private readonly chunks: AsyncIterable<Uint8Array>,
    private readonly options: TCsvOptions,
    private readonly limits: TParseLimits,
  ) {}

  /** Per column: "number" when every non-empty value is a number and one exists, else "string". After iteration ends. */
  columnTypes(): Record<string, TCsvColumnType> {
    if (!this.done || !this.columns) throw new Error("columnTypes() is known once every row has been read");
    const types: Record<string, TCsvColumnType> = {};
    this.columns.forEach((name, c) => setOwn(types, name, this.numeric[c] && this.filled[c] ? "number" : "string"));
    return types;
  }

  [Symbol.asyncIterator](): AsyncIterator<TFeature | TRow> {
    if (this.used) throw new Error("A CSV stream can be read once");
    this.used = true;
    return this.items();
  }

  private async *items(): AsyncGenerator<TFeature | TRow> {
    const maxItemBytes = this.limits.maxItemBytes ?? DEFAULT_PARSE_LIMITS.maxItemBytes;
    // The first record, as csv-parse read it: its next record's error may come before the header reaches `records`.
    let first: string[] | undefined;
    const parser = parse({
      bom: true,
      skip_empty_lines: true,
      relax_column_count: false,
      max_record_size: maxItemBytes,
      on_record: (record: string[]) => {
        first ??= record;
        return record;
      },
    });
    // csv-parse would read a byte that is not UTF-8 as U+FFFD without a word: the bytes are checked first.
    const checked = utf8Checked(countedChunks(this.chunks, this.limits.maxBytes), (where) =>
      fileFault("invalid_encoding", `The CSV file is not UTF-8 text: ${describeUtf8Fault(where)}; save it as UTF-8.`),
    );
    const bytes = Readable.from(checked, { objectMode: false });
    // Errors surface through the iteration of `parser` below; this promise only must not go unhandled.
    pipeline(bytes, parser).catch(() => undefined);
    try {
      yield* this.records(parser as AsyncIterable<string[]>);
    } catch (e) {
      if (e instanceof AppError) throw e;
      if (e instanceof CsvError) {
        const separated = first && otherSeparator(first);
        if (separated) throw separated;
        const lines = (e as CsvError & { lines?: number }).lines;
        const line = lines ? ` (line ${lines})` : "";
        if (e.code === "CSV_MAX_RECORD_SIZE") throw fileFault("too_large", `A row of the CSV file${line} is larger than ${formatBytes(maxItemBytes)}.`);
        throw fileFault("invalid_csv", `The CSV file cannot be read${line}: ${e.message}`);
      }
      throw e;
    } finally {
      parser.destroy();
    }
  }

  private async *records(records: AsyncIterable<string[]>): AsyncGenerator<TFeature | TRow> {
    const problems = new ProblemList("The CSV file");
    let header: string[] | undefined;
    let li = -1;
    let ai = -1;
    let row = 0;
    /** The coordinate in a cell, or null with the fault listed (decimal notation only: "0x10", "Infinity" or " 7 " are none, lib/steps/decimal-number.ts). */
    const coordinate = (raw: string, column: string, max: number, what: string): number | null => {
      const v = parseDecimalNumber(raw);
      if (v !== null && Math.abs(v) <= max) return v;
      problems.add({
        field: cellField(row, column),
        code: "invalid_position",
        message: `Row ${row}, column "${column}": ${JSON.stringify(raw)} is not a ${what} (-${max}..${max}).`,
      });
      return null;
    };
    for await (const r of records) {
      if (!header) {
        header = r;
        [li, ai] = this.readHeader(r);
        continue;
      }
      row++;
      if (row > this.limits.maxItems) throw fileFault("too_many_rows", `At most ${this.limits.maxItems} rows are accepted.`);
      let stored = true;
      for (let c = 0; c < r.length; c++) {
        const v = r[c]!;
        if (v !== "") {
          this.filled[c] = true;
          // An integer a double cannot hold keeps its column text, so that it is stored as written (wide-integers.ts).
          if (this.numeric[c] && (parseDecimalNumber(v) === null || isWideIntegerText(v))) this.numeric[c] = false;
          // Text decoded from UTF-8 has no unpaired surrogate; a NUL is the one character Postgres cannot store.
          if (v.includes("\u0000")) {
            stored = false;
            problems.add({ field: cellField(row, header[c]!), code: "nul_character", message: `Row ${row}, column ${JSON.stringify(header[c])}: ${NUL_TEXT}` });
          }
        }
      }
      if (!stored) {
        problems.throwIfFull();
        continue;
      }
      if (this.kind === "table") {
        const item: TRow = {};
        for (let c = 0; c < header.length; c++) setOwn(item, header[c]!, r[c]);
        yield item;
        continue;
      }
      const x = coordinate(r[li]!, header[li]!, 180, "longitude");
      const y = coordinate(r[ai]!, header[ai]!, 90, "latitude");
      problems.throwIfFull();
      if (x === null || y === null) continue;
      const properties: Record<string, unknown> = {};
      for (let c = 0; c < header.length; c++) if (c !== li && c !== ai) setOwn(properties, header[c]!, r[c]);
      yield { type: "Feature", properties, geometry: { type: "Point", coordinates: [x, y] } };
    }
    if (!header) throw noHeader();
    problems.throwIfAny();
    this.done = true;
  }

  /** Checks the header and decides the layout: the indexes of the longitude and latitude columns of points, -1 for a table. */
  private readHeader(header: string[]): [number, number] {
    if (header.length === 0) throw noHeader();
    const separated = otherSeparator(header);
    if (separated) throw separated;
    const nul = header.findIndex((h) => h.includes("\u0000"));
    if (nul >= 0)
      throw fileFault(
        "nul_character",
        `Column ${nul + 1} of the header (${JSON.stringify(header[nul])}) contains a NUL character (\\u0000), which cannot be stored; rename it.`,
      );
    const dup = header.find((h, i) => header.indexOf(h) !== i);
    if (dup !== undefined) throw fileFault("duplicate_column", `Column "${dup}" appears twice in the header.`);
    const find = (asked: string | undefined, names: string[], field: string) => {
      if (asked) {
        if (!header.includes(asked))
          throw validationError([{ field, code: "unknown_column", message: `No column "${asked}" in the header (${header.join(", ")}).` }]);
        return asked;
      }
      return header.find((h) => names.includes(h.trim().toLowerCase()));
    };
    const { lonColumn, latColumn, asTable } = this.options;
    const lon = asTable ? undefined : find(lonColumn, LON_NAMES, "/lonColumn");
    const lat = asTable ? undefined : find(latColumn, LAT_NAMES, "/latColumn");
    if (!asTable && (lonColumn || latColumn) && !(lon && lat))
      throw validationError([
        { field: lonColumn ? "/latColumn" : "/lonColumn", code: "required", message: "Name both the longitude and the latitude column." },
      ]);
    this.columns = header;
    this.numeric = header.map(() => true);
    this.filled = header.map(() => false);
    this.kind = lon && lat ? "features" : "table";
    return lon && lat ? [header.indexOf(lon), header.indexOf(lat)] : [-1, -1];
  }
}

/** Reads a CSV upload as it arrives (see module doc); iterate the result once, then read its `columnTypes()`. */
export function parseCsvStream(chunks: AsyncIterable<Uint8Array>, options: TCsvOptions = {}, limits: TParseLimits = DEFAULT_PARSE_LIMITS): CsvLayerStream {
  return new CsvLayerStream(chunks, options, limits);
}
