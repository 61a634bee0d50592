/**
 * Parquet writer for tables on top of hyparquet-writer, and the row-group writing the
 * GeoParquet writer (../geoparquet/write.ts) shares.
 *
 * File layout: Apache Parquet, SNAPPY compression, every column OPTIONAL (nullable), the
 * table's columns in order (../encode-result.ts puts the declared ones first), declared ones with
 * their declared types (`options.columns`, derived from the flow), other columns' types inferred from all values (rules in ../column-types.ts), data
 * written in row groups of at most `rowGroupRows` rows (default 8,192) and roughly 128 MB of
 * input, so only one row group's converted columns are held at a time besides the output bytes.
 */
import type { SchemaElement } from "hyparquet";
import { ParquetWriter } from "hyparquet-writer";
import type { ColumnSource } from "hyparquet-writer";
import type { TTable } from "@/lib/engine/types";
import { ChunkedByteWriter, yieldToEventLoop, type TStreamOptions } from "../byte-chunks";
import type { TColumns } from "@/lib/steps/columns";
import { ColumnTypeInference, columnTypeFor, toColumnValue, type TColumnType } from "../column-types";
import { EncodeError } from "../errors";

/** Writer identification stored in the file footer (`created_by`). */
export const CREATED_BY = "flow-api-service (hyparquet-writer 0.17)";

/**
 * Default maximum rows per row group. Small on purpose: a row group's converted columns and
 * hyparquet-writer's page buffers are garbage once the group is written, and groups of 8,192
 * rows stay in V8's young generation, where they are collected cheaply. With 65,536 rows they
 * were promoted and the process's peak memory rose by 150–280 MB while writing 135,233 points
 * or 242,168 table rows (files differ by 1–12 % in size, writing is no slower).
 */
export const DEFAULT_ROW_GROUP_ROWS = 8_192;

/** Approximate input bytes after which a row group is closed early (large geometries/strings). */
const ROW_GROUP_BYTES = 128 * 1024 * 1024;

export interface TParquetOptions extends TStreamOptions {
  /** Maximum rows per row group (default `DEFAULT_ROW_GROUP_ROWS`; at least 1). */
  rowGroupRows?: number;
  /**
   * The result's columns as derived from the flow (lib/steps/columns.ts): written with their
   * declared types, even when the run has no rows or only nulls; other columns' types are inferred.
   */
  columns?: TColumns;
}

/** Names: the declared ones first, then the data's others in their order. */
export function orderedNames(declared: TColumns | undefined, dataNames: readonly string[]): string[] {
  if (!declared) return [...dataNames];
  const names = declared.fields.map((f) => f.name);
  const seen = new Set(names);
  for (const n of dataNames) if (!seen.has(n)) names.push(n);
  return names;
}

/** One output column: its name and its type (boolean -> BOOLEAN, int64 -> INT64, double -> DOUBLE, string -> BYTE_ARRAY UTF8). */
export interface TParquetColumn {
  name: string;
  type: TColumnType;
}

const PHYSICAL_TYPES = {
  boolean: { type: "BOOLEAN" },
  int64: { type: "INT64" },
  double: { type: "DOUBLE" },
  string: { type: "BYTE_ARRAY", converted_type: "UTF8", logical_type: { type: "STRING" } },
} satisfies Record<TColumnType, Omit<SchemaElement, "name">>;

/** The Parquet schema element of an OPTIONAL column of `type` (the layer files' writer uses it too). */
export function columnSchemaElement(name: string, type: TColumnType): SchemaElement {
  return { name, ...PHYSICAL_TYPES[type], repetition_type: "OPTIONAL" };
}

function approxSize(value: unknown): number {
  if (typeof value === "string") return value.length + 4;
  if (value !== null && typeof value === "object") return 64;
  return 8;
}

/**
 * UTF-8 bytes of text cells, written one after another into 1 MiB blocks and handed out as
 * views. hyparquet-writer turns each string cell into bytes itself (`TextEncoder.encode`: a
 * buffer of its own per cell, twice for a column that tries a dictionary), and those millions
 * of small buffers came from the C library's heap: writing the Parquet of 242,168 matches left
 * a run process ~15 MB larger for good (glibc's main heap), and cost the allocations' time.
 * Cells handed over as bytes are written as they are (`UTF8` BYTE_ARRAY: the same file; its
 * statistics compare UTF-8 bytes either way). Lone UTF-16 surrogates become U+FFFD, as with
 * `TextEncoder`.
 *
 * Equal text within a row group gets the same view (`startGroup` forgets them): one encoding
 * and one view for the country codes and city names that repeat, and hyparquet-writer's
 * dictionary finds a repeated view by identity instead of hashing its bytes again. Per group,
 * so the map holds at most a row group's distinct values.
 */
export class Utf8Arena {
  private block = Buffer.allocUnsafeSlow(0);
  private used = 0;
  private seen = new Map<string, Uint8Array>();

  /** A new row group: views handed out before are not reused (they stay valid while held). */
  startGroup(): void {
    this.seen = new Map();
  }

  /** The UTF-8 bytes of `text`, a view into the current block (valid as long as it is held). */
  bytes(text: string): Uint8Array {
    let view = this.seen.get(text);
    if (view === undefined) this.seen.set(text, (view = this.encode(text)));
    return view;
  }

  private encode(text: string): Uint8Array {
    const size = Buffer.byteLength(text, "utf8");
    if (this.used + size > this.block.length) {
      this.block = Buffer.allocUnsafeSlow(Math.max(1 << 20, size));
      this.used = 0;
    }
    const start = this.used;
    this.used += this.block.write(text, start, size, "utf8");
    return this.block.subarray(start, this.used);
  }
}

/** A column whose cells are produced already converted (e.g. WKB geometry), with their size. */
export interface TExtraColumn {
  source: Omit<ColumnSource, "data">;
  /** Converted cell of row `index` and its approximate byte size. */
  cell: (index: number) => { value: unknown; size: number };
}

/**
 * Writes `rowCount` rows in bounded row groups: at most `rowGroupRows` rows and about
 * `ROW_GROUP_BYTES` of converted input per group. `valueAt(row, c)` reads one raw cell of
 * `columns[c]`; `extra` columns are appended after them.
 */
export async function writeRowGroups(
  pq: ParquetWriter,
  rowCount: number,
  columns: TParquetColumn[],
  valueAt: (row: number, columnIndex: number) => unknown,
  options: TParquetOptions,
  extra: TExtraColumn[] = [],
): Promise<void> {
  const maxRows = Math.max(1, Math.floor(options.rowGroupRows ?? DEFAULT_ROW_GROUP_ROWS));
  const width = columns.length + extra.length;
  const text = new Utf8Arena();
  let start = 0;
  while (start < rowCount) {
    options.signal?.throwIfAborted();
    const limit = Math.min(rowCount, start + maxRows);
    const data: unknown[][] = Array.from({ length: width }, () => []);
    text.startGroup();
    let bytes = 0;
    let end = start;
    while (end < limit && (end === start || bytes < ROW_GROUP_BYTES)) {
      for (let c = 0; c < columns.length; c++) {
        const value = valueAt(end, c);
        bytes += approxSize(value);
        const cell = toColumnValue(columns[c].type, value);
        data[c].push(typeof cell === "string" ? text.bytes(cell) : cell);
      }
      for (let e = 0; e < extra.length; e++) {
        const { value, size } = extra[e].cell(end);
        bytes += size;
        data[columns.length + e].push(value);
      }
      end++;
    }
    const columnData: ColumnSource[] = [
      ...columns.map(({ name }, c) => ({ name, data: data[c] as ColumnSource["data"] })),
      ...extra.map((column, e) => ({ ...column.source, data: data[columns.length + e] as ColumnSource["data"] })),
    ];
    await pq.write({ columnData, rowGroupSize: end - start });
    start = end;
    if (start < rowCount) await yieldToEventLoop(options.signal, options.pace);
  }
}

/**
 * Encodes a table as an Apache Parquet file.
 *
 * @param table `{kind:"rows", columns, values, length}`; columns are written in `columns` order,
 *   an `undefined` cell is null.
 * @returns the file bytes and the row count. Types: see `column-types.ts` (booleans BOOLEAN,
 *   integers INT64, other numbers DOUBLE, strings and mixed columns UTF8 strings).
 * @throws EncodeError for duplicate column names; the signal's reason when aborted.
 */
export async function encodeParquet(table: TTable, options: TParquetOptions = {}): Promise<{ body: Uint8Array; rowCount: number }> {
  const { columns: names, values, length } = table;
  const duplicate = names.find((name, i) => names.indexOf(name) !== i);
  if (duplicate !== undefined) throw new EncodeError(`duplicate column name ${JSON.stringify(duplicate)}`);
  const inference = values.map((column) => {
    const types = new ColumnTypeInference();
    for (let r = 0; r < length; r++) types.add(column[r]);
    return types;
  });
  const declared = new Map(options.columns?.fields.map((f) => [f.name, f.type]));
  const columns: TParquetColumn[] = names.map((name, c) => ({ name, type: columnTypeFor(declared.get(name), inference[c]) }));

  const writer = new ChunkedByteWriter(options.sink);
  const pq = new ParquetWriter({
    writer,
    schema: [{ name: "root", num_children: columns.length }, ...columns.map((c) => columnSchemaElement(c.name, c.type))],
    createdBy: CREATED_BY,
  });
  if (columns.length > 0) {
    await writeRowGroups(pq, length, columns, (r, c) => values[c]![r], options);
  }
  await pq.finish();
  return { body: writer.getBytes(), rowCount: length };
}
