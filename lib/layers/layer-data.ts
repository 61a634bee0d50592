/**
 * Layer content encoding: gzipped JSON. Features: a GeoJSON FeatureCollection; tables:
 * `{columns, rows}`. Used by the seed (writing) and the worker (reading).
 */
import { gunzipSync, gzipSync } from "node:zlib";
import type { TFeatureSet, TTable } from "@/lib/engine/types";

export function encodeLayerData(data: TFeatureSet | TTable): Buffer {
  const json =
    data.kind === "features"
      ? JSON.stringify({ type: "FeatureCollection", features: data.features })
      : JSON.stringify({ columns: data.columns, rows: data.rows });
  return gzipSync(json, { level: 6 });
}

export function decodeLayerData(kind: "features" | "table", content: Uint8Array): TFeatureSet | TTable {
  const parsed = JSON.parse(gunzipSync(content).toString("utf8")) as
    | { features: TFeatureSet["features"] }
    | { columns: string[]; rows: TTable["rows"] };
  if (kind === "features") return { kind: "features", features: (parsed as { features: TFeatureSet["features"] }).features };
  const t = parsed as { columns: string[]; rows: TTable["rows"] };
  return { kind: "rows", columns: t.columns, rows: t.rows };
}
