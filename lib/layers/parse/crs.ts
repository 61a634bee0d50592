/**
 * The coordinate reference system an upload declares, checked: layers hold longitude/latitude
 * on WGS 84 (RFC 7946 §4; OGC:CRS84), and coordinates in any other CRS would be read as
 * degrees, silently in the wrong place (metres of EPSG:3857 near the origin pass every range
 * check). Only a CRS that is longitude/latitude on WGS 84 is accepted:
 *
 * - by name (GeoJSON 2008's `crs` member, `{"type": "name", "properties": {"name": ...}}`, or
 *   a GeoParquet crs given as text): `OGC:CRS84`, `EPSG:4326` and their URN and URI forms
 *   (`urn:ogc:def:crs:OGC:1.3:CRS84`, `urn:ogc:def:crs:EPSG::4326`,
 *   `http://www.opengis.net/def/crs/OGC/1.3/CRS84`, `.../EPSG/0/4326`), case-insensitive;
 * - as PROJJSON (GeoParquet 1.1's `crs`): by its `id` (or one of its `ids`), authority OGC code
 *   CRS84, or EPSG 4326.
 * EPSG:4326 is accepted as longitude/latitude although its own axis order is
 * latitude/longitude: GeoParquet stores x/y whatever the CRS says, and a GeoJSON file naming it
 * means, in practice, the same coordinates as CRS84 (GDAL writes CRS84 for it).
 *
 * What a missing or null CRS means differs by format and is decided by its reader:
 * geoparquet-file.ts (missing: OGC:CRS84; null: unknown, refused), geojson-stream.ts (a null or
 * missing member: RFC 7946's WGS 84).
 */

const NAMES = [
  /^ogc:crs84$/,
  /^epsg:4326$/,
  /^urn:ogc:def:crs:ogc:[^:]*:crs84$/,
  /^urn:ogc:def:crs:epsg:[^:]*:4326$/,
  /^https?:\/\/www\.opengis\.net\/def\/crs\/ogc\/[^/]*\/crs84$/,
  /^https?:\/\/www\.opengis\.net\/def\/crs\/epsg\/[^/]*\/4326$/,
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether a CRS name (see module doc) is longitude/latitude on WGS 84. */
export function isLonLatCrsName(name: string): boolean {
  const n = name.trim().toLowerCase();
  return NAMES.some((re) => re.test(n));
}

/** A PROJJSON identifier's `authority:code`, or undefined when it is not one. */
function projjsonId(id: unknown): string | undefined {
  if (!isObject(id) || typeof id.authority !== "string" || (typeof id.code !== "string" && typeof id.code !== "number")) return undefined;
  return `${id.authority}:${id.code}`;
}

/** The identifiers a PROJJSON object gives itself (`id`, `ids`). */
function projjsonIds(crs: Record<string, unknown>): string[] {
  const ids = [crs.id, ...(Array.isArray(crs.ids) ? crs.ids : [])].map(projjsonId);
  return ids.filter((id): id is string => id !== undefined);
}

/** Whether a GeoParquet `crs` (PROJJSON, or a name given as text) is longitude/latitude on WGS 84. */
export function isLonLatCrs(crs: unknown): boolean {
  if (typeof crs === "string") return isLonLatCrsName(crs);
  return isObject(crs) && projjsonIds(crs).some(isLonLatCrsName);
}

/** A declared CRS as messages name it: `EPSG:3857 ("WGS 84 / Pseudo-Mercator")`, `"urn:ogc:def:crs:EPSG::3857"`. */
export function describeCrs(crs: unknown): string {
  if (typeof crs === "string") return JSON.stringify(crs);
  if (!isObject(crs)) return JSON.stringify(crs) ?? String(crs);
  const id = projjsonIds(crs)[0];
  const name = typeof crs.name === "string" ? JSON.stringify(crs.name) : undefined;
  if (id && name) return `${id} (${name})`;
  return id ?? name ?? "a PROJJSON CRS without an id";
}

/**
 * Why a GeoJSON `crs` member (GeoJSON 2008; RFC 7946 removed it) is refused, as the end of a
 * sentence naming its owner ("The file declares ..."), or undefined when it is accepted: null
 * (no CRS named) or a named CRS that is longitude/latitude on WGS 84. A linked CRS (`"type":
 * "link"`) or any other shape names nothing this service can check, and is refused.
 */
export function geoJsonCrsFault(crs: unknown): string | undefined {
  if (crs === null) return undefined;
  const name = isObject(crs) && crs.type === "name" && isObject(crs.properties) ? crs.properties.name : undefined;
  if (typeof name === "string" && isLonLatCrsName(name)) return undefined;
  const declared = typeof name === "string" ? `the CRS ${JSON.stringify(name)}` : `a CRS this service cannot tell (${JSON.stringify(crs)?.slice(0, 200)})`;
  return `declares ${declared} in its crs member (GeoJSON 2008); GeoJSON (RFC 7946) is longitude/latitude on WGS 84, the only CRS read: ${REPROJECT_HINT}, or remove the member if the coordinates are longitude/latitude already.`;
}

/** What to do about a CRS that is not read, for the end of a message. */
export const REPROJECT_HINT = "reproject it to longitude/latitude first (e.g. GeoPandas to_crs(4326), ogr2ogr -t_srs EPSG:4326)";
