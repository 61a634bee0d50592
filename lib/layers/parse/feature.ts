/**
 * One feature of an upload checked on its own, as it completes: RFC 7946 §3.2 by the rules
 * of lib/geo/validate-geojson.ts (`validateFeature`), each fault named
 * `/file/features/<index><path inside the feature>` with the message prefixed by the
 * feature's label ("Feature 12: ...", "Row 13: ..."); then a (Multi)Polygon's validity
 * (lib/geo/polygon-problems.ts), each fault `invalid_polygon` at `.../geometry`
 * ("Feature 1 ("Russia") is not a valid polygon: ..."); each Polygon and MultiPolygon member of a
 * GeometryCollection is checked the same way, at `.../geometry/geometries/<i>` ("Feature 4 is not
 * a valid polygon: geometries/0: ring 0 crosses itself near (5, 5)."). A valid feature is returned with
 * `properties` defaulting to `{}` (RFC 7946 allows null); an invalid one is recorded in the
 * problem list and not returned. The properties' values are checked too (values.ts: text
 * Postgres cannot store, nesting past 64 levels, numbers that are not finite), at
 * `/file/features/<index>/properties/<key>...` ("Feature 3, property "name": ..."), and a `crs`
 * member of the feature (GeoJSON 2008) as the file's is (crs.ts), at `.../crs`.
 */
import { jsonPointer } from "@/lib/errors";
import { geometryPolygonProblems } from "@/lib/geo/polygon-problems";
import { validateFeature } from "@/lib/geo/validate-geojson";
import type { TFeature } from "@/lib/engine/types";
import type { ProblemList } from "./problems";
import { geoJsonCrsFault } from "./crs";
import { checkValues, type TValuesPlace } from "./values";

/** A name as messages quote it: at most 60 characters (a name is there to find the feature, not to be read whole). */
const shortName = (name: string) => (name.length > 60 ? `${name.slice(0, 59)}…` : name);

/**
 * `label` names the feature in messages: "Feature 3" for GeoJSON; `noun` what its properties are
 * called there ("property", or "column" for a GeoParquet row).
 */
export function checkFeature(
  value: unknown,
  index: number,
  problems: ProblemList,
  label: string,
  noun: TValuesPlace["noun"] = "property",
): TFeature | undefined {
  const issues = validateFeature(value);
  for (const issue of issues)
    problems.add({ field: `/file${jsonPointer(["features", index, ...issue.path])}`, code: issue.code, message: `${label}: ${issue.message}` });
  // GeoJSON 2008 allowed a crs member on a feature too: a GeoJSON text sequence's only place for one.
  const crs = value !== null && typeof value === "object" && Object.hasOwn(value, "crs") ? geoJsonCrsFault((value as { crs: unknown }).crs) : undefined;
  if (crs) problems.add({ field: `/file/features/${index}/crs`, code: "unsupported_crs", message: `${label} ${crs}` });
  // The properties are checked whatever the geometry, so that one look at the errors shows both.
  const properties = (value as { properties?: unknown } | null)?.properties;
  const valuesOk =
    properties === null || typeof properties !== "object" || Array.isArray(properties)
      ? true
      : checkValues(properties as Record<string, unknown>, { pointer: `/file/features/${index}/properties`, label, noun }, problems);
  if (issues.length > 0 || !valuesOk || crs) return undefined;
  const feature = value as TFeature;
  const placed = geometryPolygonProblems(feature.geometry);
  for (const { path, problems: faults } of placed) {
    const name = typeof feature.properties?.name === "string" ? ` (${JSON.stringify(shortName(feature.properties.name))})` : "";
    // A member of a GeometryCollection is named by its path, as a MultiPolygon names its polygon ("polygon 1: ...").
    const member = path.length > 0 ? `${path.join("/")}: ` : "";
    for (const fault of faults)
      problems.add({
        field: `/file/features/${index}/geometry${jsonPointer(path)}`,
        code: "invalid_polygon",
        message: `${label}${name} is not a valid polygon: ${member}${fault}.`,
      });
  }
  if (placed.length > 0) return undefined;
  feature.properties ??= {};
  return feature;
}
