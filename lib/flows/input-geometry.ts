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

/** "a, b" of the first `MAX_LISTED_LAYERS` layers as `show` words them (then "and N more"), or null when there is none. */
function listLayers<T>(layers: readonly T[], show: (layer: T) => string): string | null {
  if (layers.length === 0) return null;
  const more = layers.length > MAX_LISTED_LAYERS ? ` and ${layers.length - MAX_LISTED_LAYERS} more` : "";
  return layers.slice(0, MAX_LISTED_LAYERS).map(show).join(", ") + more;
}

/** "world-cities, world-towns" (at most `MAX_LISTED_LAYERS`, then "and N more"), or null when there is none. */
export function listLayerIds(layers: readonly Pick<TReadableLayer, "id">[]): string | null {
  return listLayers(layers, (l) => l.id);
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

/** One layer for people and models: `world-cities (Point, 135,233 features)`, `world-capitals (table, 241 rows)`. */
export function describeLayer(layer: Pick<TReadableLayer, "id" | "kind" | "geometryTypes" | "itemCount">): string {
  const count = layer.itemCount.toLocaleString("en-US");
  if (layer.kind === "table") return `${layer.id} (table, ${count} row${layer.itemCount === 1 ? "" : "s"})`;
  const types = layer.geometryTypes.length ? layer.geometryTypes.join("/") : "geometry not recorded";
  return `${layer.id} (${types}, ${count} feature${layer.itemCount === 1 ? "" : "s"})`;
}

/** The readable layers that fit `input`, described (at most `MAX_LISTED_LAYERS`), or null when none does. */
export function describeFittingLayers(readable: readonly TReadableLayer[], input: Pick<TInput, "name" | "kind" | "geometry">): string | null {
  return listLayers(layersFitting(readable, input), describeLayer);
}

/**
 * The JSON Schema of one input's value with the readable layers that fit it on its `layer_id`
 * (the OpenAPI request schema and the MCP tool arguments): a description listing them (id,
 * geometry types or table, item count) and `examples` with their ids; `x-readable-layers` on
 * the value gives them as data. `schema` is not modified.
 *
 * `examples`, not `enum`: the readable set changes whenever an admin grants or removes a layer,
 * without a new release, while clients keep the document (generated SDKs, cached tool lists).
 * An `enum` would make such a client refuse a layer granted since; the server's 422 stays the
 * authority and names the readable ids itself.
 */
export function withReadableLayers(
  schema: Record<string, unknown>,
  input: Pick<TInput, "name" | "kind" | "geometry">,
  readable: readonly TReadableLayer[],
): Record<string, unknown> {
  if (layerKindOf(input) === null) return schema;
  const fitting = layersFitting(readable, input);
  const shown = fitting.slice(0, MAX_LISTED_LAYERS);
  const listed = listLayers(fitting, describeLayer);
  const what = input.kind === "table" ? "table" : `feature layer (${describeGeometry(declaredGeometry(input))})`;
  const description = listed
    ? `The id of a ${what} this environment may read: ${listed}.`
    : `The id of a ${what} this environment may read; none that fits is readable yet.`;
  const patch = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(patch);
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === "properties" && typeof v === "object" && v !== null && "layer_id" in v) {
        const layerId = (v as Record<string, Record<string, unknown>>).layer_id;
        out[k] = { ...v, layer_id: { ...layerId, description, ...(shown.length ? { examples: shown.map((l) => l.id) } : {}) } };
      } else out[k] = patch(v);
    }
    return out;
  };
  const readableData = shown.map((l) => ({ id: l.id, name: l.name, kind: l.kind, geometry_types: l.geometryTypes, item_count: l.itemCount }));
  return { ...(patch(schema) as Record<string, unknown>), "x-readable-layers": readableData };
}
