/**
 * Which layers fit a flow input, by kind and declared geometry (flow format: `geometry` of a
 * layer input, docs/flow-format.md "Inputs"), and the 422 faults of `{"layer_id"}` values.
 * Pure: the callers load the layers (lib/runs/create-run.ts, lib/layers/list-layers.ts).
 *
 * Geometry families (GeoJSON type names, RFC 7946 §3.1):
 * - `point`: Point, MultiPoint;
 * - `line`: LineString, MultiLineString;
 * - `polygon`: Polygon, MultiPolygon;
 * - `any` (the default when a layer input declares none): every type, and features without geometry.
 * A layer's `geometryTypes` are the distinct type names of its features; an empty list means
 * "not known yet" (stored before the types were kept) and fits every declaration, so no
 * existing layer is refused for lack of data.
 */
import type { TFieldError } from "@/lib/errors/field-error";
import type { TInput } from "@/lib/flows/definition";

export type TGeometryDeclaration = NonNullable<TInput["geometry"]>;

/** GeoJSON geometry type names each declaration accepts (`any`: null, every type). */
export const GEOMETRY_TYPES_OF: Record<Exclude<TGeometryDeclaration, "any">, readonly string[]> = {
  point: ["Point", "MultiPoint"],
  line: ["LineString", "MultiLineString"],
  polygon: ["Polygon", "MultiPolygon"],
};

/** Most readable ids listed in one 422 message or description. */
export const MAX_LISTED_LAYERS = 20;

/** A layer a caller may name as `{"layer_id": ...}`, as clients are told of it. */
export interface TReadableLayer {
  id: string;
  name: string;
  kind: "features" | "table";
  /** Distinct GeoJSON geometry type names of its features, sorted; empty for tables and when not known. */
  geometryTypes: string[];
  /** Features or rows. */
  itemCount: number;
}

/** The geometry an input declares: `any` for layer inputs that declare none (and for other kinds). */
export function declaredGeometry(input: Pick<TInput, "kind" | "geometry">): TGeometryDeclaration {
  return input.kind === "layer" ? (input.geometry ?? "any") : "any";
}

/** Whether a GeoJSON geometry type name (null: a feature without geometry) fits a declaration. */
export function geometryTypeFits(declared: TGeometryDeclaration, type: string | null): boolean {
  if (declared === "any" || type === null) return true;
  return GEOMETRY_TYPES_OF[declared].includes(type);
}

/** Human words for a declaration, e.g. "point geometry (Point or MultiPoint)". */
export function describeGeometry(declared: TGeometryDeclaration): string {
  if (declared === "any") return "any geometry";
  return `${declared} geometry (${GEOMETRY_TYPES_OF[declared].join(" or ")})`;
}

/** The layer kind an input reads: `table` for table inputs, `features` for layer inputs, null for areas. */
export function layerKindOf(input: Pick<TInput, "kind">): TReadableLayer["kind"] | null {
  return input.kind === "table" ? "table" : input.kind === "layer" ? "features" : null;
}

/** Why `layer` cannot feed `input`, or null when it fits (kind, then geometry types; unknown types fit). */
export function layerMismatch(
  layer: Pick<TReadableLayer, "id" | "kind" | "geometryTypes">,
  input: Pick<TInput, "name" | "kind" | "geometry">,
): TFieldError | null {
  const field = `/inputs/${input.name}/layer_id`;
  const wantedKind = layerKindOf(input);
  if (wantedKind !== null && layer.kind !== wantedKind) {
    return {
      field,
      code: "wrong_layer_kind",
      message: `Layer "${layer.id}" is a ${layer.kind === "features" ? "feature layer" : "table"}; input "${input.name}" needs a ${input.kind}.`,
    };
  }
  const declared = declaredGeometry(input);
  const misfits = layer.geometryTypes.filter((t) => !geometryTypeFits(declared, t));
  if (misfits.length === 0) return null;
  return {
    field,
    code: "wrong_geometry_type",
    message: `Layer "${layer.id}" holds ${layer.geometryTypes.join(", ")} features; input "${input.name}" needs ${describeGeometry(declared)}.`,
  };
}

/**
 * The layers of `readable` that fit `input`, best first: layers whose geometry types are known
 * before those not known yet, then by name (so the pick does not depend on upload order).
 */
export function layersFitting<T extends Pick<TReadableLayer, "id" | "name" | "kind" | "geometryTypes">>(
  readable: readonly T[],
  input: Pick<TInput, "name" | "kind" | "geometry">,
): T[] {
  if (layerKindOf(input) === null) return [];
  return readable
    .filter((l) => layerMismatch(l, input) === null)
    .sort((a, b) => Number(a.geometryTypes.length === 0) - Number(b.geometryTypes.length === 0) || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1));
}

/** "world-cities, world-towns" (at most `MAX_LISTED_LAYERS`, then "and N more"), or null when there is none. */
export function listLayerIds(layers: readonly Pick<TReadableLayer, "id">[]): string | null {
  if (layers.length === 0) return null;
  const shown = layers.slice(0, MAX_LISTED_LAYERS).map((l) => l.id);
  return shown.join(", ") + (layers.length > MAX_LISTED_LAYERS ? ` and ${layers.length - MAX_LISTED_LAYERS} more` : "");
}

/**
 * The faults of the `{"layer_id"}` values of a request (field: `/inputs/<name>/layer_id`):
 * - `unknown_layer`: the id is not among `readable` (missing and not readable alike), with the
 *   readable ids that would fit the input (at most `MAX_LISTED_LAYERS`);
 * - `wrong_layer_kind`, `wrong_geometry_type`: see `layerMismatch`.
 * `where` completes "No layer "x" is readable ..." (e.g. "in this environment").
 */
export function layerInputFaults(
  inputs: readonly Pick<TInput, "name" | "kind" | "geometry">[],
  wanted: readonly { name: string; layerId: string }[],
  readable: readonly TReadableLayer[],
  where: string,
): TFieldError[] {
  const byId = new Map(readable.map((l) => [l.id, l]));
  const errors: TFieldError[] = [];
  for (const w of wanted) {
    const input = inputs.find((i) => i.name === w.name);
    if (!input) continue;
    const layer = byId.get(w.layerId);
    if (!layer) {
      const fitting = listLayerIds(layersFitting(readable, input));
      errors.push({
        field: `/inputs/${w.name}/layer_id`,
        code: "unknown_layer",
        message: `No layer "${w.layerId}" is readable ${where}.${fitting ? ` Readable layers for "${w.name}": ${fitting}.` : ` None readable ${where} fits "${w.name}".`}`,
      });
      continue;
    }
    const mismatch = layerMismatch(layer, input);
    if (mismatch) errors.push(mismatch);
  }
  return errors;
}

/** Distinct geometry type names of features, sorted (null geometries are skipped). */
export function geometryTypesOf(features: Iterable<{ geometry: { type: string } | null }>): string[] {
  const seen = new Set<string>();
  for (const f of features) if (f.geometry) seen.add(f.geometry.type);
  return [...seen].sort();
}
