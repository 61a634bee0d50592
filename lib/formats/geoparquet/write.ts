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
import type { TFieldSchema } from "@/lib/steps/columns";
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
  columns: Record<
    string,
    { encoding: "WKB"; geometry_types: string[]; bbox?: [number, number, number, number]; covering?: { bbox: Record<string, [string, string]> } }
  >;
}

/** The `geo` metadata of a `geometry` column with these statistics, and with a bbox covering column's name when it has one. */
export function geoMetadata(stats: GeometryStats, coveringColumn?: string): TGeoMetadata {
  const bbox = stats.bbox();
  const covering = coveringColumn && { bbox: Object.fromEntries(BBOX_FIELDS.map((f) => [f, [coveringColumn, f] as [string, string]])) };
  return {
    version: "1.1.0",
    primary_column: GEOMETRY_COLUMN,
    columns: { [GEOMETRY_COLUMN]: { encoding: "WKB", geometry_types: stats.geometryTypes(), ...(bbox ? { bbox } : {}), ...(covering ? { covering } : {}) } },
  };
}

/** The fields of a GeoParquet 1.1 bbox covering struct. */
export const BBOX_FIELDS = ["xmin", "ymin", "xmax", "ymax"] as const;

/** Property keys in first-seen order (declared ones first) with their running type inference. */
export class ColumnCollector {
  readonly keys: string[] = [];
  readonly inference: ColumnTypeInference[] = [];
  private readonly index = new Map<string, number>();

  constructor(declared: readonly TFieldSchema[]) {
    for (const field of declared) this.slot(field.name);
  }

  private slot(key: string): number {
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.keys.length;
      this.index.set(key, i);
      this.keys.push(key);
      this.inference.push(new ColumnTypeInference());
    }
    return i;
  }

  add(record: Record<string, unknown> | null | undefined): void {
    if (!record) return;
    for (const key in record) {
      if (Object.hasOwn(record, key)) this.inference[this.slot(key)].add(record[key]);
    }
  }
}

/** One output column: the property `key` it holds, its `name` in the file and its type. */
export interface TPlannedColumn extends TParquetColumn {
  key: string;
}

/**
 * The collected keys as columns, typed by their declared type when the data fits it (else
 * inferred); a key named like one of `reserved` is written as `<key>_<n>`, the first name free.
 */
export function planColumns(collector: ColumnCollector, declared: readonly TFieldSchema[], reserved: readonly string[]): TPlannedColumn[] {
  const declaredType = new Map(declared.map((f) => [f.name, f.type]));
  const taken = new Set([...reserved, ...collector.keys]);
  return collector.keys.map((key, c) => {
    let name = key;
    if (reserved.includes(key)) {
      for (let n = 1; taken.has(name); n++) name = `${key}_${n}`;
      taken.add(name);
    }
    return { key, name, type: columnTypeFor(declaredType.get(key), collector.inference[c]) };
  });
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
  const declared = options.columns?.fields ?? [];
  const collector = new ColumnCollector(declared);
  for (const feature of features) collector.add(feature.properties);
  const columns = planColumns(collector, declared, [GEOMETRY_COLUMN]);
  const stats = new GeometryStats();
  const arena = new WkbArena();

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

  const geometryColumn: TExtraColumn = {
    // statistics (min/max of WKB bytes) mean nothing for geometry; dictionaries rarely help
    source: { name: GEOMETRY_COLUMN, encoding: "PLAIN", statistics: false },
    cell: (index) => {
      const geometry = features[index]!.geometry as Geometry | null | undefined;
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

  await writeRowGroups(pq, features.length, columns, (i, c) => ownValue(features[i]!.properties, columns[c]!.key), options, [geometryColumn]);
  const metadata = geoMetadata(stats);
  pq.kvMetadata = [{ key: "geo", value: JSON.stringify(metadata) }];
  await pq.finish();
  return { body: writer.getBytes(), featureCount: features.length, geo: metadata };
}
