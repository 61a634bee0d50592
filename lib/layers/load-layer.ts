/**
 * Loads a workspace layer for the engine, with a per-process cache keyed by
 * (layer id, data version): the 135,233-city layer is parsed once per worker, and the
 * engine's spatial indexes (cached per features array) survive across runs.
 * Cached datasets are shared and must be treated as read-only by steps.
 */
import "server-only";
import { InputDataError } from "@/lib/errors";
import { db } from "@/lib/db";
import { decodeLayerData } from "@/lib/layers/layer-data";
import type { TFeatureSet, TTable } from "@/lib/engine/types";

const cache = new Map<string, { version: number; data: TFeatureSet | TTable }>();

/** @throws InputDataError when the layer does not exist (any more) or has no content. */
export async function loadLayer(layerId: string): Promise<TFeatureSet | TTable> {
  const layer = await db.layer.findUnique({ where: { id: layerId }, select: { kind: true, dataVersion: true } });
  if (!layer) throw new InputDataError(`Layer "${layerId}" does not exist (any more).`);
  const hit = cache.get(layerId);
  if (hit && hit.version === layer.dataVersion) return hit.data;
  const row = await db.layerData.findUnique({ where: { layerId } });
  if (!row) throw new InputDataError(`Layer "${layerId}" has no data.`);
  const data = decodeLayerData(layer.kind, row.content);
  cache.set(layerId, { version: layer.dataVersion, data });
  return data;
}
