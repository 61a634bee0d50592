/**
 * A feature's RFC 7946 members besides its geometry and properties, as a layer file keeps them:
 * its `id` (§3.2: a string or a number) and its `bbox` (§5: 2·n numbers, n = 2 or 3). A layer
 * in memory kept them, and the GeoJSON writer and a result's lossless copy still write them, so
 * a feature read from a layer file has them back: a flow over an uploaded layer answers the
 * upload's ids, as one over caller GeoJSON sent inline does.
 *
 * In the file they are one OPTIONAL UTF-8 column (`FEATURE_MEMBERS_COLUMN`, named in the
 * `flow-api:layer-file` metadata as `members`), written only when some feature has one: each
 * cell the JSON text of `{"id"?, "bbox"?}`, null for a feature with neither. JSON keeps both
 * exactly (strings, finite numbers), and one text column holds ids of mixed types (`1` and
 * `"1"` stay apart). A `bbox` that is not such an array of finite numbers is not kept, as other
 * foreign members are not.
 */
import type { TFeature } from "@/lib/engine/types";

/** Name of the column of `TFeatureMembers` (see module doc). */
export const FEATURE_MEMBERS_COLUMN = "feature_members";

export interface TFeatureMembers {
  id?: string | number;
  bbox?: number[];
}

function isBbox(value: unknown): value is number[] {
  return Array.isArray(value) && (value.length === 4 || value.length === 6) && value.every((v) => typeof v === "number" && Number.isFinite(v));
}

/** The members `feature` keeps in a layer file, as their JSON text; null when it has none. */
export function encodeFeatureMembers(feature: TFeature): string | null {
  const id = typeof feature.id === "string" || (typeof feature.id === "number" && Number.isFinite(feature.id)) ? feature.id : undefined;
  const bbox = isBbox(feature.bbox) ? feature.bbox : undefined;
  if (id === undefined && bbox === undefined) return null;
  return JSON.stringify({ id, bbox });
}

/** A cell of the members column back as the members it holds (a null or unreadable cell: none). */
export function decodeFeatureMembers(cell: unknown): TFeatureMembers | null {
  if (typeof cell !== "string") return null;
  let value: unknown;
  try {
    value = JSON.parse(cell);
  } catch {
    return null;
  }
  if (value === null || typeof value !== "object") return null;
  const { id, bbox } = value as Record<string, unknown>;
  const members: TFeatureMembers = {};
  if (typeof id === "string" || typeof id === "number") members.id = id;
  if (isBbox(bbox)) members.bbox = bbox;
  return members.id === undefined && members.bbox === undefined ? null : members;
}

/** Sets `members` on `feature` (its own, fresh object; the bbox a copy, so that `members` can stay cached). */
export function applyFeatureMembers(feature: TFeature, members: TFeatureMembers | null): void {
  if (!members) return;
  if (members.id !== undefined) feature.id = members.id;
  if (members.bbox !== undefined) feature.bbox = members.bbox.slice() as TFeature["bbox"];
}
