/**
 * A result's lossless copy in the blob store, written by the run process beside the format the
 * caller asked for, so that any other format can be made later, on request and by any worker,
 * even after the process that ran the flow is gone (a crash right after the run was final, a
 * format whose writing failed). Without it a completed run's other format could be lost for good.
 *
 * Layout (internal, never served): frames of `[u32 little-endian length][v8.serialize(value)]`;
 * the first frame is the header `{v: 1, kind, columns, tableColumns}`, each further frame an
 * array of at most `SPILL_BATCH` features (layers) or rows (tables). V8's serializer is the
 * structured-clone format Node ships: it keeps every JSON value as it was (numbers bit for bit,
 * null vs "", nested objects), and it is read back by the same Node major version (the worker's
 * `node_modules` Node). Written and read batch by batch: neither side holds a second copy.
 */
import v8 from "node:v8";
import type { TEngineResult, TFeature, TRow } from "@/lib/engine/types";
import { tableFromRows, tableRows } from "@/lib/steps/dataset";
import type { TColumns } from "@/lib/steps/columns";

const SPILL_BATCH = 4_096;

interface TSpillHeader {
  v: 1;
  kind: "layer" | "table";
  columns: TColumns | null;
  tableColumns: string[];
}

function frame(value: unknown): Uint8Array {
  const body = v8.serialize(value);
  const out = Buffer.allocUnsafe(4 + body.byteLength);
  out.writeUInt32LE(body.byteLength, 0);
  body.copy(out, 4);
  return out;
}

/** The frames of `result` (header, then batches), for `TBlobStore.put`. */
export async function* spillFrames(result: TEngineResult, signal?: AbortSignal): AsyncGenerator<Uint8Array> {
  const header: TSpillHeader = {
    v: 1,
    kind: result.kind,
    columns: result.columns ?? null,
    tableColumns: result.kind === "table" ? result.data.columns : [],
  };
  yield frame(header);
  if (result.kind === "layer") {
    const features = result.data.features;
    for (let i = 0; i < features.length; i += SPILL_BATCH) {
      signal?.throwIfAborted();
      yield frame(features.slice(i, i + SPILL_BATCH));
    }
    return;
  }
  for (let i = 0; i < result.data.length; i += SPILL_BATCH) {
    signal?.throwIfAborted();
    yield frame(tableRows(result.data, i, i + SPILL_BATCH));
  }
}

/** Reads a spill back (from `TBlobStore.stream`) into the engine result it was made of. */
export async function readSpill(key: string, chunks: AsyncIterable<Uint8Array>): Promise<TEngineResult> {
  let pending = Buffer.alloc(0);
  let header: TSpillHeader | null = null;
  const items: unknown[] = [];
  for await (const chunk of chunks) {
    pending = pending.byteLength === 0 ? Buffer.from(chunk) : Buffer.concat([pending, chunk]);
    let offset = 0;
    while (pending.byteLength - offset >= 4) {
      const length = pending.readUInt32LE(offset);
      if (pending.byteLength - offset - 4 < length) break;
      const value = v8.deserialize(pending.subarray(offset + 4, offset + 4 + length)) as unknown;
      offset += 4 + length;
      if (!header) header = value as TSpillHeader;
      else for (const item of value as unknown[]) items.push(item);
    }
    pending = pending.subarray(offset);
  }
  if (!header || header.v !== 1 || pending.byteLength > 0) throw new Error(`result copy ${key} is incomplete or of an unknown version`);
  const columns = header.columns ?? undefined;
  if (header.kind === "layer") return { key, kind: "layer", data: { kind: "features", features: items as TFeature[] }, columns };
  return { key, kind: "table", data: tableFromRows(header.tableColumns, items as TRow[]), columns };
}
