/**
 * Helpers for the parsers' tests: byte streams cut at chosen places, collecting a parser's
 * items or its AppError, and the messages the whole-file import (import-layer.ts before
 * streaming) gave for a GeoJSON document, computed from `validateFeatureCollection`: the
 * oracle every streamed error is compared with.
 */
import { AppError, jsonPointer, type TFieldError } from "@/lib/errors";
import { validateFeatureCollection } from "@/lib/geo/validate-geojson";

export const utf8 = (s: string) => new TextEncoder().encode(s);

/** `bytes` as a stream cut at the given offsets. */
export async function* cutAt(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const c of [...cuts, bytes.byteLength]) {
    if (c < from) continue;
    yield bytes.slice(from, c);
    from = c;
  }
}

/** `bytes` as a stream of pieces of `size` bytes. */
export function piecesOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  const cuts: number[] = [];
  for (let at = size; at < bytes.byteLength; at += size) cuts.push(at);
  return cutAt(bytes, cuts);
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of items) out.push(x);
  return out;
}

/** The AppError a parser ends with (fails the test when it ends without one). */
export async function failure(items: AsyncIterable<unknown>): Promise<AppError> {
  try {
    for await (const _ of items) void _;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected the parser to fail");
}

/** The field errors the whole-file GeoJSON import listed for `doc` (first 20). */
export function wholeFileGeoJsonErrors(doc: unknown, maxFeatures = Infinity): TFieldError[] {
  return validateFeatureCollection(doc, maxFeatures)
    .map((i) => ({
      field: `/file${jsonPointer(i.path)}`,
      code: i.code,
      message: i.path[0] === "features" && typeof i.path[1] === "number" ? `Feature ${i.path[1]}: ${i.message}` : i.message,
    }))
    .slice(0, 20);
}
