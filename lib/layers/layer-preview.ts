/**
 * A preview of a workspace layer that keeps the page fast whatever the layer's size:
 * features → a GeoJSON FeatureCollection of at most `PREVIEW_MAX_FEATURES` features (an even
 * sample across the layer, every k-th) with coordinates rounded to 5 decimals (about 1 m);
 * tables → the columns and the first `PREVIEW_MAX_ROWS` rows. `total` is the layer's item count.
 *
 * @throws AppError `not_found` for a layer not in the workspace.
 */
import "server-only";
import type { FeatureCollection } from "geojson";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { loadLayer } from "@/lib/layers/load-layer";

export const PREVIEW_MAX_FEATURES = 3_000;
export const PREVIEW_MAX_ROWS = 100;

const round = (c: unknown): unknown => (typeof c === "number" ? Math.round(c * 1e5) / 1e5 : Array.isArray(c) ? c.map(round) : c);

export async function layerPreview(scope: { workspaceId: string }, layerId: string) {
  const layer = await db.layer.findFirst({ where: { id: layerId, workspaceId: scope.workspaceId }, select: { id: true } });
  if (!layer) throw new AppError("not_found", "No such layer in this workspace.");
  // loadLayer caches the parsed layer per (id, data version), so a preview of a large layer parses it once.
  const data = await loadLayer(layer.id);
  if (data.kind === "features") {
    const step = Math.max(1, Math.ceil(data.features.length / PREVIEW_MAX_FEATURES));
    const features = data.features
      .filter((_, i) => i % step === 0)
      .map((f) => ({ ...f, geometry: f.geometry && "coordinates" in f.geometry ? { ...f.geometry, coordinates: round(f.geometry.coordinates) } : f.geometry }));
    return { kind: "features" as const, total: data.features.length, sampled: step > 1, geojson: { type: "FeatureCollection", features } as FeatureCollection };
  }
  return {
    kind: "table" as const,
    total: data.rows.length,
    sampled: data.rows.length > PREVIEW_MAX_ROWS,
    columns: data.columns,
    rows: data.rows.slice(0, PREVIEW_MAX_ROWS),
  };
}

export type TLayerPreview = Awaited<ReturnType<typeof layerPreview>>;
