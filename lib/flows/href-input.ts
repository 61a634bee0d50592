/**
 * Layer and table inputs by reference: `{"href": "https://…", "type"?: "<media type>"}` in a
 * run request (OGC 18-062r2 calls this a link input: `href` plus an optional `type`). The file
 * at the URL is fetched by the worker when the run starts (lib/runs/href-input.ts) and imported
 * like an upload; this module only knows its formats, for the request schema and the worker.
 *
 * The format of the file, first found wins:
 * 1. the response's `Content-Type`, unless it is a generic one (`application/octet-stream`,
 *    `text/plain`, ...);
 * 2. the request's `type` member;
 * 3. the URL path's extension (`.geojson`, `.geojsonl`, `.csv`, `.parquet`, ...).
 * Formats: GeoJSON (RFC 7946), GeoJSON Text Sequences (RFC 8142, or one Feature per line), CSV
 * (RFC 4180 with a header; longitude and latitude columns make points), GeoParquet 1.x.
 */

/** The upload formats a referenced file may have (the names of lib/layers/parse's `UPLOAD_FORMATS`). */
export type THrefFormat = "geojson" | "geojsonseq" | "csv" | "geoparquet";

/** Media types understood, by format; the first of each is the one documented. */
const MEDIA_TYPES: Record<THrefFormat, readonly string[]> = {
  geojson: ["application/geo+json", "application/vnd.geo+json", "application/json"],
  geojsonseq: ["application/geo+json-seq", "application/json-seq", "application/x-ndjson", "application/geojson-seq"],
  csv: ["text/csv"],
  geoparquet: ["application/vnd.apache.parquet", "application/x-parquet", "application/parquet"],
};

/** Media types accepted in the `type` member of an href input. */
export const HREF_MEDIA_TYPES = Object.values(MEDIA_TYPES).flat() as [string, ...string[]];

/** The `Accept` header of the fetch: the documented type of each format, anything else last. */
export const HREF_ACCEPT = `${Object.values(MEDIA_TYPES)
  .map((t) => t[0])
  .join(", ")}, */*;q=0.1`;

const EXTENSIONS: Record<string, THrefFormat> = {
  geojson: "geojson",
  json: "geojson",
  geojsonl: "geojsonseq",
  geojsons: "geojsonseq",
  geojsonseq: "geojsonseq",
  ndjson: "geojsonseq",
  jsonl: "geojsonseq",
  csv: "csv",
  parquet: "geoparquet",
  geoparquet: "geoparquet",
};

/** The format of a media type (parameters such as `; charset=utf-8` ignored), or null for an unknown or generic one. */
export function formatOfMediaType(mediaType: string | null | undefined): THrefFormat | null {
  const essence = mediaType?.split(";")[0]?.trim().toLowerCase();
  if (!essence) return null;
  for (const [format, types] of Object.entries(MEDIA_TYPES)) if (types.includes(essence)) return format as THrefFormat;
  return null;
}

/** The format of a URL by its path's extension, or null. */
export function formatOfUrl(url: string): THrefFormat | null {
  if (!URL.canParse(url)) return null;
  const path = new URL(url).pathname.toLowerCase();
  const ext = path.slice(path.lastIndexOf("/") + 1).split(".");
  return ext.length > 1 ? (EXTENSIONS[ext[ext.length - 1]!] ?? null) : null;
}

/** The format of a fetched file by the order of the module doc, or null when nothing tells it. */
export function hrefFormat(contentType: string | null, declaredType: string | undefined, url: string): THrefFormat | null {
  return formatOfMediaType(contentType) ?? formatOfMediaType(declaredType) ?? formatOfUrl(url);
}
