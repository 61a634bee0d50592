/**
 * Running aggregates (`count`, `sum`, `min`, `max`, `mean`) for the steps that take
 * `aggregations` (aggregate, spatial_join, within_distance). Semantics: see `ZAggregation`;
 * values are read with `readNumber` (numeric text counts as its number, as in filters).
 */
import type { TAggregation } from "@/lib/steps/options";

/**
 * The one rule by which steps read a value as a number (docs/flow-format.md "Numbers in caller
 * data"): a finite JSON number as it is; text that `Number()` reads as a finite number (not
 * blank) as that number, as MapLibre's `to-number` does in filters; anything else (null,
 * booleans, other text, objects) is no number: null.
 */
export function readNumber(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "string" && v.trim() !== "") {
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
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
    if (v === null) return;
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

export function accs(aggs: readonly TAggregation[]): Acc[] {
  return aggs.map((a) => new Acc(a));
}

export function accValues(list: Acc[], into: Record<string, unknown>): Record<string, unknown> {
  for (const a of list) into[a.a.as] = a.value();
  return into;
}
