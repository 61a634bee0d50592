/**
 * The hint under a parameter's field in Try it and "Run the flow": its type, every bound the
 * request schema checks (inclusive ≥ / ≤, exclusive > / <, a string's length), its default and
 * whether it is required; e.g. "number, > 0, ≤ 500, default 25". Pure.
 */
import type { TParameter } from "@/lib/flows/definition";

export function parameterHint(x: TParameter): string {
  const bounds: (string | null)[] =
    x.type === "number" || x.type === "integer"
      ? [
          x.exclusiveMinimum !== undefined ? `> ${x.exclusiveMinimum}` : null,
          x.minimum !== undefined ? `≥ ${x.minimum}` : null,
          x.exclusiveMaximum !== undefined ? `< ${x.exclusiveMaximum}` : null,
          x.maximum !== undefined ? `≤ ${x.maximum}` : null,
        ]
      : x.type === "string" && x.max_length !== undefined
        ? [`at most ${x.max_length} characters`]
        : [];
  return [x.type, ...bounds, x.default !== undefined ? `default ${String(x.default)}` : null, x.required ? "required" : null].filter(Boolean).join(", ");
}
