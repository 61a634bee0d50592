/**
 * One feature of an upload checked on its own, as it completes: RFC 7946 §3.2 by the rules
 * of lib/geo/validate-geojson.ts (`validateFeature`), each fault named
 * `/file/features/<index><path inside the feature>` with the message prefixed by the
 * feature's label ("Feature 12: ...", "Row 13: ..."). A valid feature is returned with
 * `properties` defaulting to `{}` (RFC 7946 allows null); an invalid one is recorded in the
 * problem list and not returned.
 */
import { jsonPointer } from "@/lib/errors";
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
  feature.properties ??= {};
  return feature;
}
