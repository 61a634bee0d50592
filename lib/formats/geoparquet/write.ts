/**
 * GeoParquet 1.1 writer for layers (https://geoparquet.org/releases/v1.1.0/), on the Parquet
 * writer's row groups (../parquet/write.ts): the geometry column `geometry` is a plain
 * BYTE_ARRAY of ISO WKB (no Parquet GEOMETRY logical type, for the widest reader support), null
 * for features without geometry; the file key-value metadata `geo` holds
 * `{"version":"1.1.0","primary_column":"geometry","columns":{"geometry":{"encoding":"WKB",
 * "geometry_types":[sorted distinct names],"bbox":[minx,miny,maxx,maxy]}}}`. `crs` is omitted,
 * which the spec defines as OGC:CRS84 (WGS 84 lon/lat), and `edges` is omitted (planar). `bbox`
 * is omitted when the layer has no coordinates at all. Property columns come first (declared
 * ones, then the others in first-seen key order over all features), then `geometry`.
 */
import { ParquetWriter } from "hyparquet-writer";
import type { Geometry } from "geojson";
import type { TFeatureSet } from "@/lib/engine/types";
import { ChunkedByteWriter } from "../byte-chunks";
import { ColumnTypeInference, columnTypeFor, ownValue } from "../column-types";
import { EncodeError } from "../errors";
import { columnSchemaElement, CREATED_BY, writeRowGroups, type TExtraColumn, type TParquetColumn, type TParquetOptions } from "../parquet/write";
import { geometryToWkb, GeometryStats, WkbArena } from "../wkb";

/** Name of the primary geometry column in GeoParquet output. */
export const GEOMETRY_COLUMN = "geometry";

/** The GeoParquet 1.1 `geo` metadata object written for a layer. */
export interface TGeoMetadata {
  version: "1.1.0";
  primary_column: string;
  columns: Record<string, { encoding: "WKB"; geometry_types: string[]; bbox?: [number, number, number, number] }>;
}

/** Picks a property column name that does not clash with the geometry column. */
function propertyColumnName(key: string, taken: Set<string>): string {
  if (key !== GEOMETRY_COLUMN) return key;
  let n = 1;
  while (taken.has(`${key}_${n}`)) n++;
  return `${key}_${n}`;
}

/**
 * Encodes a layer as a GeoParquet 1.1 file.
 *
 * @param layer `{kind:"features", features}`; RFC 7946 features, WGS 84 lon/lat, geometry may
 *   be null. Property columns are the union of all features' property keys in first-seen order
 *   (a missing key is null); a property named `geometry` is renamed `geometry_1` (or the next
 *   free `geometry_<n>`). Feature `id`s are not written.
 * @returns the file bytes, the feature count and the `geo` metadata that was written.
 * @throws EncodeError naming the feature index for an invalid geometry; the signal's reason
 *   when aborted.
 */
export async function encodeGeoParquet(
  layer: TFeatureSet,
  options: TParquetOptions = {},
): Promise<{ body: Uint8Array; featureCount: number; geo: TGeoMetadata }> {
  const features = layer.features;
  // pass 1: property keys (first-seen order) and their types
  const keyIndex = new Map<string, number>();
  const keys: string[] = [];
  const inference: ColumnTypeInference[] = [];
  for (const f of options.columns?.fields ?? []) {
    keyIndex.set(f.name, keys.length);
    keys.push(f.name);
    inference.push(new ColumnTypeInference());
  }
  const declared = new Map(options.columns?.fields.map((f) => [f.name, f.type]));
  for (const feature of features) {
    const properties = feature.properties;
    if (!properties) continue;
    for (const key in properties) {
      if (!Object.hasOwn(properties, key)) continue;
      let index = keyIndex.get(key);
      if (index === undefined) {
        index = keys.length;
        keyIndex.set(key, index);
        keys.push(key);
        inference.push(new ColumnTypeInference());
      }
      inference[index].add(properties[key]);
    }
  }
  const taken = new Set(keys);
  const columns: TParquetColumn[] = keys.map((key, c) => {
    const name = propertyColumnName(key, taken);
    taken.add(name);
    return { name, type: columnTypeFor(declared.get(key), inference[c]) };
  });

  const stats = new GeometryStats();
  const arena = new WkbArena();
  const geo = (): TGeoMetadata => {
    const bbox = stats.bbox();
    return {
      version: "1.1.0",
      primary_column: GEOMETRY_COLUMN,
      columns: {
        [GEOMETRY_COLUMN]: { encoding: "WKB", geometry_types: stats.geometryTypes(), ...(bbox ? { bbox } : {}) },
      },
    };
  };

  const writer = new ChunkedByteWriter(options.sink);
  const pq = new ParquetWriter({
    writer,
    schema: [
      { name: "root", num_children: columns.length + 1 },
      ...columns.map((c) => columnSchemaElement(c.name, c.type)),
      { name: GEOMETRY_COLUMN, type: "BYTE_ARRAY", repetition_type: "OPTIONAL" },
    ],
    createdBy: CREATED_BY,
  });

  const geometryColumn: TExtraColumn<(typeof features)[number]> = {
    // statistics (min/max of WKB bytes) mean nothing for geometry; dictionaries rarely help
    source: { name: GEOMETRY_COLUMN, encoding: "PLAIN", statistics: false },
    cell: (feature, index) => {
      const geometry = feature.geometry as Geometry | null | undefined;
      if (geometry === null || geometry === undefined) return { value: null, size: 1 };
      try {
        const wkb = geometryToWkb(geometry, arena);
        stats.add(geometry);
        return { value: wkb, size: wkb.length + 4 };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new EncodeError(`feature ${index}: ${reason}`, { cause: error });
      }
    },
  };

  await writeRowGroups(pq, features, columns, (feature, c) => ownValue(feature.properties, keys[c]!), options, [geometryColumn]);
  const metadata = geo();
  pq.kvMetadata = [{ key: "geo", value: JSON.stringify(metadata) }];
  await pq.finish();
  return { body: writer.getBytes(), featureCount: features.length, geo: metadata };
}
