/**
 * An estimate of the heap bytes an item holds, shared by the layer file writer (its early close
 * of a row group) and reader (the row group cache's byte bound).
 *
 * Heap sizes used by the estimate, measured on Node 20 (V8 11) with `--expose-gc` and
 * heapUsed before/after holding 500,000 point features parsed from JSON (264 bytes each, with
 * four properties) and 50,000 polygons of 100 positions (7,435 bytes each: ~72 per position).
 * The estimate errs high for points (~340 for those four properties): a bound, not a target.
 */
const OBJECT_BYTES = 40;
const POSITION_BYTES = 72;
const ARRAY_BYTES = 32;
const PROPERTY_BYTES = 24;
const NUMBER_BYTES = 16;
const STRING_HEADER_BYTES = 20;

/** Estimated heap bytes of a feature, row or other JSON-like value (strings counted at one byte per character plus a header). */
export function estimateItemBytes(value: unknown): number {
  switch (typeof value) {
    case "string":
      return STRING_HEADER_BYTES + value.length;
    case "number":
    case "bigint":
      return NUMBER_BYTES;
    case "object": {
      if (value === null) return 0;
      if (Array.isArray(value)) {
        if (value.length > 0 && typeof value[0] === "number") return POSITION_BYTES;
        let n = ARRAY_BYTES;
        for (const item of value) n += 8 + estimateItemBytes(item);
        return n;
      }
      let n = OBJECT_BYTES;
      for (const key in value) {
        if (Object.hasOwn(value, key)) n += PROPERTY_BYTES + estimateItemBytes((value as Record<string, unknown>)[key]);
      }
      return n;
    }
    default:
      return 8;
  }
}
