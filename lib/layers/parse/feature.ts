/**
 * One feature of an upload checked on its own, as it completes: RFC 7946 §3.2 by the rules
 * of lib/geo/validate-geojson.ts (`validateFeature`), each fault named
 * `/file/features/<index><path inside the feature>` with the message prefixed by the
 * feature's label ("Feature 12: ...", "Row 13: ..."); then a (Multi)Polygon's validity
 * (lib/geo/polygon-problems.ts), each fault `invalid_polygon` at `.../geometry`
 * ("Feature 1 ("Russia") is not a valid polygon: ..."). A valid feature is returned with
 * `properties` defaulting to `{}` (RFC 7946 allows null); an invalid one is recorded in the
 * problem list and not returned.
 */
import { jsonPointer } from "@/lib/errors";
import { polygonProblems } from "@/lib/geo/polygon-problems";
import { validateFeature } from "@/lib/geo/validate-geojson";
import type { TFeature } from "@/lib/engine/types";
import type { ProblemList } from "./problems";

/** `label` names the feature in messages: `(i) => "Feature " + i` for GeoJSON. */
export function checkFeature(value: unknown, index: number, problems: ProblemList, label: string): TFeature | undefined {
  const issues = validateFeature(value);
  if (issues.length > 0) {
    for (const issue of issues)
      problems.add({ field: `/file${jsonPointer(["features", index, ...issue.path])}`, code: issue.code, message: `${label}: ${issue.message}` });
    return undefined;
  }
  const feature = value as TFeature;
  const faults = polygonProblems(feature.geometry);
  for (const fault of faults) {
    const name = typeof feature.properties?.name === "string" ? ` ("${feature.properties.name}")` : "";
    problems.add({ field: `/file/features/${index}/geometry`, code: "invalid_polygon", message: `${label}${name} is not a valid polygon: ${fault}.` });
  }
  if (faults.length > 0) return undefined;
  feature.properties ??= {};
  return feature;
}
