/**
 * Adding (or replacing) a workspace layer from an uploaded file:
 * - GeoJSON (RFC 7946): a FeatureCollection; every feature checked (lib/geo/validate-geojson.ts),
 *   each fault named by feature index (`/features/12/geometry/coordinates`).
 * - CSV (RFC 4180, header row): with longitude and latitude columns (named in the upload, or
 *   found as lon/lng/longitude/x and lat/latitude/y) it becomes a features layer of points;
 *   otherwise a table. Faults are named by row (1 = first data row) and column. A column whose
 *   every non-empty value is a number is stored as numbers.
 * - GeoParquet 1.x (SNAPPY or uncompressed, read with hyparquet): the geometry column becomes
 *   the features' geometry, the other columns their properties.
 * Every (Multi)Polygon must be valid (OGC Simple Features, lib/geo/polygon-problems.ts): an
 * invalid one is refused with code `invalid_polygon`, naming the feature, e.g. "Feature 12
 * ("Russia") is not a valid polygon: polygon 17: ring 0 crosses the antimeridian as given ...".
 * The layer records its distinct geometry type names (`geometryTypes`), which runs check
 * against a flow input's declared geometry (lib/flows/input-geometry.ts).
 *
 * Size limit: `MAX_LAYER_UPLOAD_BYTES` (25 MiB) per file and `MAX_LAYER_ITEMS` items.
 * Replacing a layer (same id in the workspace) stores the new content and increments its
 * `dataVersion`, so workers never use stale parsed data (lib/layers/load-layer.ts caches by it).
 *
 * @throws AppError `validation_failed` (fields: `/file` with the fault's place in the file,
 *   `/id`, `/name`), `payload_too_large`.
 */
import "server-only";
import { parse as parseCsvSync } from "csv-parse/sync";
import { parquetReadObjects } from "hyparquet";
import { db } from "@/lib/db";
import { AppError, validationError, type TFieldError } from "@/lib/errors";
import { validateFeatureCollection } from "@/lib/geo/validate-geojson";
import { polygonProblems } from "@/lib/geo/polygon-problems";
import { geometryTypesOf } from "@/lib/flows/input-geometry";
import { jsonPointer } from "@/lib/errors/field-error";
import { encodeLayerData } from "@/lib/layers/layer-data";
import type { TFeature, TFeatureSet, TTable } from "@/lib/engine/types";

export const MAX_LAYER_UPLOAD_BYTES = 25 * 1024 * 1024;
export const MAX_LAYER_ITEMS = 250_000;
export const LAYER_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const LAYER_FORMATS_IN = ["geojson", "csv", "geoparquet"] as const;
export type TLayerUploadFormat = (typeof LAYER_FORMATS_IN)[number];

export interface TImportLayerInput {
  id: string;
  name: string;
  description?: string;
  format: TLayerUploadFormat;
  bytes: Uint8Array;
  /** CSV only: the longitude / latitude columns (found by name when absent). */
  lonColumn?: string;
  latColumn?: string;
}

const MAX_LISTED = 20;
const fileErrors = (errors: TFieldError[], what: string) =>
  validationError(
    errors.slice(0, MAX_LISTED),
    `${what} has ${errors.length} problem${errors.length === 1 ? "" : "s"}${errors.length > MAX_LISTED ? ` (first ${MAX_LISTED} listed)` : ""}.`,
  );

export function parseGeoJson(bytes: Uint8Array): TFeatureSet {
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch (e) {
    throw validationError([{ field: "/file", code: "invalid_json", message: `The file is not JSON: ${(e as Error).message}` }]);
  }
  const issues = validateFeatureCollection(doc, MAX_LAYER_ITEMS);
  if (issues.length > 0) {
    throw fileErrors(
      issues.map((i) => ({
        field: `/file${jsonPointer(i.path)}`,
        code: i.code,
        message: i.path[0] === "features" && typeof i.path[1] === "number" ? `Feature ${i.path[1]}: ${i.message}` : i.message,
      })),
      "The GeoJSON file",
    );
  }
  const fc = doc as { features: TFeature[] };
  return { kind: "features", features: fc.features.map((f) => ({ ...f, properties: (f.properties ?? {}) as Record<string, unknown> })) };
}

const LON_NAMES = ["lon", "lng", "long", "longitude", "x"];
const LAT_NAMES = ["lat", "latitude", "y"];

export function parseCsv(bytes: Uint8Array, opts: { lonColumn?: string; latColumn?: string } = {}): TFeatureSet | TTable {
  let records: string[][];
  try {
    records = parseCsvSync(Buffer.from(bytes), { bom: true, skip_empty_lines: true, relax_column_count: false }) as string[][];
  } catch (e) {
    const err = e as Error & { lines?: number };
    throw validationError([
      { field: "/file", code: "invalid_csv", message: `The CSV file cannot be read${err.lines ? ` (line ${err.lines})` : ""}: ${err.message}` },
    ]);
  }
  const [header, ...rows] = records;
  if (!header || header.length === 0) throw validationError([{ field: "/file", code: "invalid_csv", message: "The CSV file has no header row." }]);
  if (rows.length > MAX_LAYER_ITEMS)
    throw validationError([{ field: "/file", code: "too_many_rows", message: `At most ${MAX_LAYER_ITEMS} rows are accepted.` }]);
  const dup = header.find((h, i) => header.indexOf(h) !== i);
  if (dup !== undefined) throw validationError([{ field: "/file", code: "duplicate_column", message: `Column "${dup}" appears twice in the header.` }]);
  const find = (asked: string | undefined, names: string[], field: string) => {
    if (asked) {
      if (!header.includes(asked))
        throw validationError([{ field, code: "unknown_column", message: `No column "${asked}" in the header (${header.join(", ")}).` }]);
      return asked;
    }
    return header.find((h) => names.includes(h.trim().toLowerCase()));
  };
  const lon = find(opts.lonColumn, LON_NAMES, "/lonColumn");
  const lat = find(opts.latColumn, LAT_NAMES, "/latColumn");
  if ((opts.lonColumn || opts.latColumn) && !(lon && lat))
    throw validationError([
      { field: opts.lonColumn ? "/latColumn" : "/lonColumn", code: "required", message: "Name both the longitude and the latitude column." },
    ]);

  const numeric = header.map((_, c) => rows.every((r) => r[c] === "" || Number.isFinite(Number(r[c]))) && rows.some((r) => r[c] !== ""));
  const value = (c: number, v: string) => (v === "" ? null : numeric[c] ? Number(v) : v);
  if (!lon || !lat) {
    return { kind: "rows", columns: header, rows: rows.map((r) => Object.fromEntries(header.map((h, c) => [h, value(c, r[c]!)]))) };
  }
  const li = header.indexOf(lon);
  const ai = header.indexOf(lat);
  const errors: TFieldError[] = [];
  const features: TFeature[] = [];
  rows.forEach((r, i) => {
    const x = Number(r[li]);
    const y = Number(r[ai]);
    const row = i + 1;
    if (r[li] === "" || !Number.isFinite(x) || x < -180 || x > 180)
      errors.push({
        field: `/file/rows/${row}/${lon}`,
        code: "invalid_position",
        message: `Row ${row}, column "${lon}": ${JSON.stringify(r[li])} is not a longitude (-180..180).`,
      });
    if (r[ai] === "" || !Number.isFinite(y) || y < -90 || y > 90)
      errors.push({
        field: `/file/rows/${row}/${lat}`,
        code: "invalid_position",
        message: `Row ${row}, column "${lat}": ${JSON.stringify(r[ai])} is not a latitude (-90..90).`,
      });
    const properties = Object.fromEntries(header.flatMap((h, c) => (c === li || c === ai ? [] : [[h, value(c, r[c]!)]])));
    features.push({ type: "Feature", properties, geometry: { type: "Point", coordinates: [x, y] } });
  });
  if (errors.length > 0) throw fileErrors(errors, "The CSV file");
  return { kind: "features", features };
}

export async function parseGeoParquet(bytes: Uint8Array): Promise<TFeatureSet> {
  let rows: Record<string, unknown>[];
  const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  try {
    rows = (await parquetReadObjects({ file: buf })) as Record<string, unknown>[];
  } catch (e) {
    throw validationError([{ field: "/file", code: "invalid_parquet", message: `The file cannot be read as (Geo)Parquet: ${(e as Error).message}` }]);
  }
  if (rows.length > MAX_LAYER_ITEMS)
    throw validationError([{ field: "/file", code: "too_many_rows", message: `At most ${MAX_LAYER_ITEMS} rows are accepted.` }]);
  const geomKey = rows[0] ? Object.keys(rows[0]).find((k) => isGeometry(rows[0]![k])) : undefined;
  if (rows.length > 0 && !geomKey)
    throw validationError([
      { field: "/file", code: "no_geometry", message: "No GeoParquet geometry column found (the file needs GeoParquet `geo` metadata and a WKB column)." },
    ]);
  const fc = {
    type: "FeatureCollection",
    features: rows.map((r) => {
      const { [geomKey!]: geometry, ...properties } = r;
      return {
        type: "Feature",
        geometry: geometry ?? null,
        properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])),
      };
    }),
  };
  const issues = validateFeatureCollection(fc, MAX_LAYER_ITEMS);
  if (issues.length > 0)
    throw fileErrors(
      issues.map((i) => ({
        field: `/file${jsonPointer(i.path)}`,
        code: i.code,
        message: typeof i.path[1] === "number" ? `Row ${i.path[1] + 1}: ${i.message}` : i.message,
      })),
      "The GeoParquet file",
    );
  return { kind: "features", features: fc.features as TFeature[] };
}

function isGeometry(v: unknown): boolean {
  return typeof v === "object" && v !== null && typeof (v as { type?: unknown }).type === "string" && ("coordinates" in v || "geometries" in v);
}

export function bboxOfFeatures(features: TFeature[]): number[] {
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === "number") {
      w = Math.min(w, c[0]);
      e = Math.max(e, c[0]);
      s = Math.min(s, c[1] as number);
      n = Math.max(n, c[1] as number);
    } else if (Array.isArray(c)) c.forEach(visit);
  };
  const geom = (g: unknown): void => {
    if (!g || typeof g !== "object") return;
    if ("coordinates" in g) visit((g as { coordinates: unknown }).coordinates);
    if ("geometries" in g) (g as { geometries: unknown[] }).geometries.forEach(geom);
  };
  for (const f of features) geom(f.geometry);
  return Number.isFinite(w) ? [w, s, e, n] : [];
}

/**
 * Refuses (Multi)Polygons that are not valid (lib/geo/polygon-problems.ts: rings crossing or
 * touching themselves, holes outside, overlapping polygons, an edge across the antimeridian),
 * naming each feature by index (GeoParquet: row, from 1) and `name` property when it has one.
 */
function checkPolygons(features: TFeature[], unit: "feature" | "row"): void {
  const errors: TFieldError[] = [];
  features.forEach((f, i) => {
    for (const problem of polygonProblems(f.geometry)) {
      const name = typeof f.properties.name === "string" ? ` ("${f.properties.name}")` : "";
      errors.push({
        field: `/file/features/${i}/geometry`,
        code: "invalid_polygon",
        message: `${unit === "row" ? `Row ${i + 1}` : `Feature ${i}`}${name} is not a valid polygon: ${problem}.`,
      });
    }
  });
  if (errors.length > 0) throw fileErrors(errors, unit === "row" ? "The GeoParquet file" : "The file");
}

export async function importLayer(
  scope: { workspaceId: string },
  input: TImportLayerInput,
): Promise<{ layerId: string; kind: "features" | "table"; itemCount: number; dataVersion: number; replaced: boolean }> {
  const errors: TFieldError[] = [];
  if (!LAYER_ID_PATTERN.test(input.id) || input.id.length > 100)
    errors.push({ field: "/id", code: "invalid_format", message: "Use lower-case letters, digits and single hyphens (at most 100), e.g. swiss-lakes." });
  if (!input.name.trim() || input.name.length > 200)
    errors.push({ field: "/name", code: "invalid_value", message: "A layer needs a name of 1 to 200 characters." });
  if (errors.length > 0) throw validationError(errors);
  if (input.bytes.byteLength > MAX_LAYER_UPLOAD_BYTES) {
    throw new AppError(
      "payload_too_large",
      `A layer file may be at most ${MAX_LAYER_UPLOAD_BYTES / 1024 / 1024} MiB; this one is ${(input.bytes.byteLength / 1024 / 1024).toFixed(1)} MiB.`,
    );
  }
  if (input.bytes.byteLength === 0) throw validationError([{ field: "/file", code: "required", message: "The file is empty." }]);
  const data =
    input.format === "geojson" ? parseGeoJson(input.bytes) : input.format === "csv" ? parseCsv(input.bytes, input) : await parseGeoParquet(input.bytes);
  if (data.kind === "features") checkPolygons(data.features, input.format === "geoparquet" ? "row" : "feature");
  const kind = data.kind === "features" ? ("features" as const) : ("table" as const);
  const geometryTypes = data.kind === "features" ? geometryTypesOf(data.features) : [];
  const itemCount = data.kind === "features" ? data.features.length : data.rows.length;
  const bbox = data.kind === "features" ? bboxOfFeatures(data.features) : [];
  const content = new Uint8Array(encodeLayerData(data));

  return db.$transaction(async (tx) => {
    const existing = await tx.layer.findUnique({ where: { id: input.id } });
    if (existing && existing.workspaceId !== scope.workspaceId)
      throw validationError([{ field: "/id", code: "id_taken", message: `The layer id "${input.id}" is already used; choose another.` }]);
    if (existing) {
      const updated = await tx.layer.update({
        where: { id: input.id },
        data: {
          name: input.name.trim(),
          description: input.description?.trim() || existing.description,
          kind,
          itemCount,
          bbox,
          geometryTypes,
          dataVersion: { increment: 1 },
        },
      });
      await tx.layerData.upsert({ where: { layerId: input.id }, create: { layerId: input.id, content }, update: { content } });
      return { layerId: input.id, kind, itemCount, dataVersion: updated.dataVersion, replaced: true };
    }
    await tx.layer.create({
      data: {
        id: input.id,
        workspaceId: scope.workspaceId,
        name: input.name.trim(),
        description: input.description?.trim() || null,
        kind,
        itemCount,
        bbox,
        geometryTypes,
      },
    });
    await tx.layerData.create({ data: { layerId: input.id, content } });
    return { layerId: input.id, kind, itemCount, dataVersion: 1, replaced: false };
  });
}
