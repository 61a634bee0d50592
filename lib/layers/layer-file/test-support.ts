/** Helpers for the layer file tests (not used by production code). */
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { AsyncBuffer } from "hyparquet";
import type { Geometry } from "geojson";
import type { TFeature, TRow } from "@/lib/engine/types";
import { writeLayerFile, type TWriteLayerFileOptions } from "./write-layer-file";
import type { TLayerFileSummary } from "./types";

/** A fresh temporary directory, and a function that lists what is left in it (recursively) and removes it. */
export async function tempDir(): Promise<{ dir: string; leftovers: () => Promise<string[]>; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "layer-file-test-"));
  return {
    dir,
    leftovers: async () => (await readdir(dir, { recursive: true })).map(String),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Writes `items` into memory; returns the file and the summary. */
export async function writeToBytes(
  items: Iterable<TFeature | TRow> | AsyncIterable<TFeature | TRow>,
  opts: Omit<TWriteLayerFileOptions, "sink">,
): Promise<{ bytes: Uint8Array; summary: TLayerFileSummary }> {
  const chunks: Uint8Array[] = [];
  const summary = await writeLayerFile(items, { ...opts, sink: (chunk) => void chunks.push(chunk) });
  return { bytes: Buffer.concat(chunks), summary };
}

/** An AsyncBuffer over bytes in memory, counting the slices asked for. */
export function memoryFile(bytes: Uint8Array): AsyncBuffer & { slices: number } {
  const file = {
    slices: 0,
    byteLength: bytes.byteLength,
    slice(start: number, end?: number) {
      file.slices++;
      return Promise.resolve(bytes.buffer.slice(bytes.byteOffset + start, bytes.byteOffset + (end ?? bytes.byteLength)) as ArrayBuffer);
    },
  };
  return file;
}

/** Bbox of a geometry by flattening its coordinates (independent of item-measure.ts). */
export function flatBbox(geometry: Geometry | null): [number, number, number, number] | null {
  if (!geometry) return null;
  const flat = JSON.stringify(
    geometry.type === "GeometryCollection" ? geometry.geometries.map((g) => (g as { coordinates: unknown }).coordinates) : geometry.coordinates,
  );
  // every position is an innermost [x, y(, z)] array of numbers
  const positions = [...flat.matchAll(/\[(-?[\d.e+-]+),(-?[\d.e+-]+)(?:,[^\]]*)?\]/g)].map((m) => [Number(m[1]), Number(m[2])]);
  if (positions.length === 0) return null;
  const xs = positions.map((p) => p[0]);
  const ys = positions.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}
