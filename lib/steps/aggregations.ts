/**
 * Running aggregates (`count`, `sum`, `min`, `max`, `mean`) for the steps that take
 * `aggregations` (aggregate, spatial_join, within_distance). Semantics: see `ZAggregation`;
 * values are read with `readNumber` (numeric text counts as its number, as in filters).
 */
import { parseDecimalNumber } from "@/lib/steps/decimal-number";
import type { TAggregation } from "@/lib/steps/options";
import { columnValues, type TTable } from "@/lib/steps/dataset";

/**
 * The one rule by which steps read a value as a number (docs/flow-format.md "Numbers in caller
 * data"): a finite JSON number as it is; text in decimal notation as that number
 * (`parseDecimalNumber`: not "0x10", "Infinity", " 5" or ""); anything else (null, booleans,
 * other text, objects) is no number: null.
 */
export function readNumber(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string") return parseDecimalNumber(v);
  return null;
}

/** Running aggregate of one `TAggregation`. */
export class Acc {
  n = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  constructor(readonly a: TAggregation) {}
  add(p: Record<string, unknown>): void {
    const a = this.a;
    if (a.op === "count") {
      if (a.field === undefined || (p[a.field] !== null && p[a.field] !== undefined)) this.n++;
      return;
    }
    const v = readNumber(p[a.field!]);
    if (v !== null) this.addNumber(v);
  }

  /**
   * Adds item `i` of the items `column` was read from (`fieldColumn` of this aggregation's
   * field; null for a count without field): the same as `add` of that item's properties.
   */
  addAt(column: TFieldColumn | null, i: number): void {
    if (this.a.op === "count") {
      if (column === null || column.present === null || column.present[i] === 1) this.n++;
      return;
    }
    const v = column!.numbers[i]!;
    if (v === v) this.addNumber(v); // NaN: no number
  }

  /** Adds items `from` to `to - 1` as `addAt` adds each: one loop over the column's arrays. */
  addRange(column: TFieldColumn | null, from: number, to: number): void {
    if (this.a.op === "count") {
      if (column === null || column.present === null) this.n += to - from;
      else for (let i = from; i < to; i++) this.n += column.present[i]!;
      return;
    }
    const numbers = column!.numbers;
    for (let i = from; i < to; i++) {
      const v = numbers[i]!;
      if (v === v) this.addNumber(v);
    }
  }

  private addNumber(v: number): void {
    this.n++;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }
  value(): number | null {
    switch (this.a.op) {
      case "count":
        return this.n;
      case "sum":
        return this.sum;
      case "min":
        return this.n ? this.min : null;
      case "max":
        return this.n ? this.max : null;
      case "mean":
        return this.n ? this.sum / this.n : null;
    }
  }
}

/**
 * One field of a list of items, read once: `numbers[i]` is `readNumber` of item i's value (NaN
 * where that is null), `present[i]` 1 where the value is neither null nor undefined (`present`
 * null: every value is).
 */
export interface TFieldColumn {
  numbers: Float64Array;
  present: Uint8Array | null;
}

const NO_PROPERTIES: Record<string, unknown> = {};
const columnCache = new WeakMap<readonly { properties: Record<string, unknown> | null }[], Map<string, TFieldColumn>>();

/**
 * The column `field` of `items` (features), cached per items array like the spatial indexes
 * (lib/geo/spatial-index.ts): a layer a worker keeps is read once for all its runs. Steps that
 * aggregate the same targets many times (within_distance: every target within reach of every
 * source) read typed arrays instead of a property by name per target, which is a lookup by a
 * key only known at run time: on nearby-cities (5,000 places, 30 km, 242,168 targets summed),
 * about 100 ms of the step's 250-300 ms. Arrays must not be mutated once read (the engine never
 * mutates its data).
 */
export function fieldColumn(items: readonly { properties: Record<string, unknown> | null }[], field: string): TFieldColumn {
  let byField = columnCache.get(items);
  if (!byField) columnCache.set(items, (byField = new Map()));
  let column = byField.get(field);
  if (!column) byField.set(field, (column = readField(items.length, (i) => (items[i]!.properties ?? NO_PROPERTIES)[field]))); // as `add(props(item))` reads it
  return column;
}

/** The column `field` of `table` as `fieldColumn` reads it (a missing column: no values), for a field that is no property of a plain object. */
export function tableFieldColumn(table: TTable, field: string): TFieldColumn {
  const cells = columnValues(table, field);
  if (cells instanceof Float64Array) return numbersField(cells);
  return readField(table.length, (i) => cells?.[i]);
}

/**
 * A column of numbers only (a layer file's, lib/layers/layer-file) as `readField` reads it: every
 * value present, a non-finite one no number. The cells themselves when none is infinite (columns
 * are never written to): no new `ArrayBuffer` bytes (see lib/steps/point-columns.ts for why that
 * matters; bench "data", the 1-degree `cities-in-area` row: 107 KB a run).
 */
function numbersField(cells: Float64Array): TFieldColumn {
  let finite = true;
  for (let i = 0; i < cells.length && finite; i++) finite = cells[i] !== Infinity && cells[i] !== -Infinity;
  if (finite) return { numbers: cells, present: null };
  const numbers = new Float64Array(cells.length);
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i]!;
    numbers[i] = Number.isFinite(v) ? v : NaN;
  }
  return { numbers, present: null };
}

function readField(length: number, valueAt: (i: number) => unknown): TFieldColumn {
  const numbers = new Float64Array(length);
  const present = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    const v = valueAt(i);
    numbers[i] = readNumber(v) ?? NaN;
    present[i] = v === null || v === undefined ? 0 : 1;
  }
  return { numbers, present };
}

export function accs(aggs: readonly TAggregation[]): Acc[] {
  return aggs.map((a) => new Acc(a));
}

export function accValues(list: Acc[], into: Record<string, unknown>): Record<string, unknown> {
  for (const a of list) into[a.a.as] = a.value();
  return into;
}
