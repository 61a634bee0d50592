/**
 * A preview of a workspace layer that keeps the page fast whatever the layer's size, read from
 * its file in the blob store (lib/layers/layer-file) without reading the whole layer:
 * - features → a GeoJSON FeatureCollection of at most `PREVIEW_MAX_FEATURES` features, with
 *   coordinates rounded to 5 decimals (about 1 m): every k-th feature of the layer when it has at
 *   most `PREVIEW_ROW_GROUPS` row groups, else every k-th feature of that many row groups spread
 *   evenly over the file (the file is sorted along a Hilbert curve, so they spread over the map);
 * - tables → the columns and the first `PREVIEW_MAX_ROWS` rows.
 * `total` is the layer's item count; `sampled` whether fewer items are shown. Every value is one
 * JSON can write (an integer beyond ±(2^53 - 1) as its decimal text).
 *
 * @throws AppError `not_found` for a layer not in the workspace (or without a file yet).
 */
import "server-only";
import type { FeatureCollection } from "geojson";
import { blobAsyncBuffer, blobStore } from "@/lib/blobs";
import { db } from "@/lib/db";
import type { TFeature, TFeatureSet, TRow } from "@/lib/engine/types";
import { AppError } from "@/lib/errors";
import { openLayerFile, readLayerBatches } from "@/lib/layers/layer-file";
import { setOwn } from "@/lib/steps/dataset";

export const PREVIEW_MAX_FEATURES = 3_000;
export const PREVIEW_MAX_ROWS = 100;
/** Row groups a preview of a large layer decodes at most (4,096 features each). */
export const PREVIEW_ROW_GROUPS = 24;

const round = (c: unknown): unknown => (typeof c === "number" ? Math.round(c * 1e5) / 1e5 : Array.isArray(c) ? c.map(round) : c);

/**
 * `values` as JSON can carry them: an INT64 value beyond ±(2^53 - 1) reads back as a bigint,
 * which JSON.stringify refuses (the preview answered 500), so it is shown as its decimal text,
 * as uploads keep such integers (lib/layers/parse/wide-integers.ts). Layer files written since
 * hold none (write-layer-file.ts); older ones may. The same object when it holds no bigint.
 */
function jsonValues<T extends Record<string, unknown>>(values: T): T {
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(values)) {
    const v = values[key];
    if (typeof v !== "bigint") continue;
    out ??= { ...values };
    setOwn(out, key, v.toString());
  }
  return (out ?? values) as T;
}

export async function layerPreview(scope: { workspaceId: string }, layerId: string) {
  const layer = await db.layer.findFirst({ where: { id: layerId, workspaceId: scope.workspaceId }, select: { fileKey: true, itemCount: true, columns: true } });
  if (!layer?.fileKey) throw new AppError("not_found", "No such layer in this workspace.");
  const file = await openLayerFile(await blobAsyncBuffer(blobStore(), layer.fileKey));
  if (file.kind === "table") {
    const rows: TRow[] = [];
    for await (const batch of readLayerBatches(file, null, { rowGroups: [0] }))
      rows.push(...(batch as TRow[]).slice(0, PREVIEW_MAX_ROWS - rows.length).map(jsonValues));
    return {
      kind: "table" as const,
      total: file.itemCount,
      sampled: file.itemCount > PREVIEW_MAX_ROWS,
      columns: file.columns.map((c) => c.name),
      rows,
    };
  }
  const groups = file.rowGroups;
  const chosen =
    groups.length <= PREVIEW_ROW_GROUPS
      ? groups
      : Array.from({ length: PREVIEW_ROW_GROUPS }, (_, i) => groups[Math.floor((i * groups.length) / PREVIEW_ROW_GROUPS)]!);
  const inChosen = chosen.reduce((n, g) => n + g.rowCount, 0);
  const step = Math.max(1, Math.ceil(inChosen / PREVIEW_MAX_FEATURES));
  const features: TFeature[] = [];
  let i = 0;
  for await (const batch of readLayerBatches(file, null, { rowGroups: chosen.map((g) => g.index) })) {
    for (const f of (batch as TFeatureSet).features) {
      if (i++ % step !== 0) continue;
      features.push({
        ...f,
        properties: jsonValues(f.properties),
        geometry:
          f.geometry && "coordinates" in f.geometry ? ({ ...f.geometry, coordinates: round(f.geometry.coordinates) } as TFeature["geometry"]) : f.geometry,
      });
    }
  }
  return {
    kind: "features" as const,
    total: file.itemCount,
    sampled: features.length < file.itemCount,
    geojson: { type: "FeatureCollection", features } as FeatureCollection,
  };
}

export type TLayerPreview = Awaited<ReturnType<typeof layerPreview>>;
