/**
 * Limits of one layer upload (`TParseLimits`) and the byte counter every streaming parser reads
 * through. A stream past `maxBytes` is stopped (`payload_too_large`) before the rest arrives;
 * each parser stops at the first item past `maxItems` (`validation_failed`, `too_many_features` /
 * `too_many_rows`). A parser holds at most one item at a time, so `maxItemBytes` is what bounds
 * its memory: a 2 GiB file that is one feature would otherwise be held whole.
 */
import { AppError } from "@/lib/errors";
import { fileFault } from "./problems";

/** Largest layer file accepted, bytes (2 GiB). */
export const MAX_LAYER_UPLOAD_BYTES = 2 * 1024 * 1024 * 1024;
/** Most features or rows in one layer. */
export const MAX_LAYER_ITEMS = 20_000_000;
/** Largest single feature / record / row, bytes as uploaded (64 MiB: a detailed country outline is a few MB). */
export const MAX_LAYER_ITEM_BYTES = 64 * 1024 * 1024;

export interface TParseLimits {
  maxBytes: number;
  maxItems: number;
  /** Default `MAX_LAYER_ITEM_BYTES`. */
  maxItemBytes?: number;
}

export const DEFAULT_PARSE_LIMITS: Required<TParseLimits> = {
  maxBytes: MAX_LAYER_UPLOAD_BYTES,
  maxItems: MAX_LAYER_ITEMS,
  maxItemBytes: MAX_LAYER_ITEM_BYTES,
};

/** `2 GiB`, `25 MiB`, `1.5 KiB`, `512 bytes`: how the limits are named in messages. */
export function formatBytes(n: number): string {
  const units = ["GiB", "MiB", "KiB"] as const;
  for (let i = 0; i < units.length; i++) {
    const size = 1024 ** (units.length - i);
    if (n >= size) {
      const v = n / size;
      return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
    }
  }
  return `${n} bytes`;
}

/** The `payload_too_large` error for a file past `maxBytes`. */
export function tooLarge(maxBytes: number, seen?: number): AppError {
  return new AppError(
    "payload_too_large",
    `A layer file may be at most ${formatBytes(maxBytes)}; this one is larger${seen === undefined ? "" : ` (stopped after ${formatBytes(seen)})`}.`,
  );
}

/** The `validation_failed` error for an empty upload (no bytes at all). */
export const emptyFile = () => fileFault("required", "The file is empty.");

/** Pieces at most this long are handed to the parsers, so one huge chunk of the caller's never makes one huge burst of items. */
const SLICE_BYTES = 1024 * 1024;

/** Bytes a stream may still take; several streams may share one (a run's inputs). */
export interface TByteBudget {
  bytesLeft: number;
}

/**
 * The chunks, passed on as they come, counted against `budget` (its `bytesLeft` goes down by
 * each chunk's length): throws `overBudget()` as soon as it is spent, before the rest arrives.
 */
export async function* withinBudget(chunks: AsyncIterable<Uint8Array>, budget: TByteBudget, overBudget: () => Error): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    budget.bytesLeft -= chunk.byteLength;
    if (budget.bytesLeft < 0) throw overBudget();
    yield chunk;
  }
}

/**
 * The chunks of an upload, passed on as they come (split into pieces of at most 1 MiB),
 * counting bytes: throws `payload_too_large` as soon as the total passes `maxBytes`, and
 * `validation_failed` (`/file`, `required`) when the stream ends without a byte.
 */
export async function* countedChunks(chunks: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  const budget = { bytesLeft: maxBytes };
  for await (const chunk of withinBudget(chunks, budget, () => tooLarge(maxBytes, maxBytes - budget.bytesLeft))) {
    for (let at = 0; at < chunk.byteLength; at += SLICE_BYTES) yield chunk.subarray(at, Math.min(at + SLICE_BYTES, chunk.byteLength));
  }
  if (budget.bytesLeft === maxBytes) throw emptyFile();
}
