/**
 * Layer content encoding: gzipped JSON. Features: a GeoJSON FeatureCollection; tables:
 * `{columns, rows}`. Used by the seed (writing) and the worker (reading).
 *
 * The JSON is written with one feature (or row) per line:
 * `{"type":"FeatureCollection","features":[` NL feature `,` NL feature NL `]}` (tables:
 * `{"columns":[...],"rows":[` NL row ...). It is still one valid JSON document, but the reader
 * can parse it line by line straight from the inflated bytes, without first turning 20+ MB
 * of UTF-8 into one JavaScript string (which V8 stores with two bytes per character as soon
 * as one city name is outside Latin-1): that halves the worker's memory peak while it loads
 * the 135,233-city layer. JSON never contains a raw line break inside a value, so lines are
 * exactly the items. Content written as one line (older seeds) is parsed as a whole.
 */
import { gunzipSync, gzipSync } from "node:zlib";
import type { TFeatureSet, TTable } from "@/lib/engine/types";

const FEATURES_HEAD = '{"type":"FeatureCollection","features":[';
const ROWS_TAIL_OF_HEAD = ',"rows":[';

function lines(head: string, items: readonly unknown[]): string {
  return items.length === 0 ? `${head}]}` : `${head}\n${items.map((x) => JSON.stringify(x)).join(",\n")}\n]}`;
}

/** Gzipped JSON of a layer, one item per line (see module doc). */
export function encodeLayerData(data: TFeatureSet | TTable): Buffer {
  const json =
    data.kind === "features" ? lines(FEATURES_HEAD, data.features) : lines(`{"columns":${JSON.stringify(data.columns)}${ROWS_TAIL_OF_HEAD}`, data.rows);
  return gzipSync(json, { level: 6 });
}

/** The items of a one-item-per-line document, or null when `bytes` is not in that layout. */
function parseLines(bytes: Buffer): { head: string; items: unknown[] } | null {
  const firstBreak = bytes.indexOf(10);
  if (firstBreak < 0) return null;
  const head = bytes.toString("utf8", 0, firstBreak);
  if (head !== FEATURES_HEAD && !(head.startsWith('{"columns":') && head.endsWith(ROWS_TAIL_OF_HEAD))) return null;
  const items: unknown[] = [];
  let start = firstBreak + 1;
  for (;;) {
    const end = bytes.indexOf(10, start);
    if (end < 0) break; // the last line is the closing "]}"
    const stop = bytes[end - 1] === 44 /* "," */ ? end - 1 : end;
    items.push(JSON.parse(bytes.toString("utf8", start, stop)));
    start = end + 1;
  }
  return { head, items };
}

export function decodeLayerData(kind: "features" | "table", content: Uint8Array): TFeatureSet | TTable {
  // 1 MiB output pieces, not zlib's 16 KiB: small pieces of the 20+ MB text come from the C
  // library's main heap, which kept ~20 MB of it in every run process for good (glibc); pieces
  // this large are mapped and returned on their own (lib/runs/process-memory.ts MALLOC_ENV).
  const bytes = gunzipSync(content, { chunkSize: 1 << 20 });
  const byLine = parseLines(bytes);
  if (byLine) {
    if (kind === "features") return { kind: "features", features: byLine.items as TFeatureSet["features"] };
    const columns = (JSON.parse(byLine.head + "]}") as { columns: string[] }).columns;
    return { kind: "rows", columns, rows: byLine.items as TTable["rows"] };
  }
  const parsed = JSON.parse(bytes.toString("utf8")) as { features: TFeatureSet["features"] } | { columns: string[]; rows: TTable["rows"] };
  if (kind === "features") return { kind: "features", features: (parsed as { features: TFeatureSet["features"] }).features };
  const t = parsed as { columns: string[]; rows: TTable["rows"] };
  return { kind: "rows", columns: t.columns, rows: t.rows };
}
