/**
 * An OGC execute request (OGC 18-062r2 `execute.yaml`: `inputs`, `outputs`, `response`) as the
 * run request body of the HTTP door's `POST /runs` (`inputs`, `parameters`, `formats`), which
 * is then validated exactly as that door validates it (lib/runs/check-run-request.ts).
 *
 * - Each process input is a flow input (its value in one of the HTTP door's forms, a
 *   qualified value `{"value": ...}`, a link `{"href": ..., "type"?: ...}` for a layer or table
 *   (the door's `href` form: fetched by the worker, lib/runs/href-input.ts; `rel`, `title` and
 *   `hreflang` are dropped), or directly a GeoJSON FeatureCollection, a Polygon for an area, an
 *   array of rows for a table) or a parameter (lib/ogc/process-description.ts).
 * - `outputs.<key>.format.mediaType` chooses the result's format among its kind's;
 *   `transmissionMode` ("value" or "reference") how the result is answered.
 * - `subscriber` (requirements class "callback") passes through as the run request's
 *   `subscriber` (lib/flows/subscriber.ts).
 */
import { z } from "zod";
import type { TFieldError } from "@/lib/errors";
import type { TFlowVersion } from "@/lib/flows/definition";
import { formatOfMediaType, parameterInputIds } from "@/lib/ogc/process-description";

export const ZExecuteRequest = z.object({
  inputs: z.record(z.string(), z.unknown()).optional(),
  outputs: z
    .record(
      z.string(),
      z.object({
        format: z.object({ mediaType: z.string().optional() }).optional(),
        transmissionMode: z.enum(["value", "reference"]).optional(),
      }),
    )
    .optional(),
  response: z.enum(["document", "raw"]).optional(),
  subscriber: z.unknown().optional(),
});
export type TExecuteRequest = z.infer<typeof ZExecuteRequest>;

/** How each result is answered: by value or by reference (absent: by value up to a size). */
export type TTransmission = Record<string, "value" | "reference">;

/**
 * How an execute request asked for its results, kept with its run (`run.ogcAnswer`) so that
 * `GET /jobs/{jobId}/results` and the `successUri` callback answer as the request asked
 * (OGC 18-062r2, /req/core/job-results-async-document, -async-raw-value-one, -value-multi,
 * -ref, -mixed-multi): `outputs` the result keys it named (absent: all), `transmission` each
 * one's mode, `response` the results document (default) or the outputs themselves.
 */
export const ZOgcAnswer = z.object({
  outputs: z.array(z.string()).optional(),
  transmission: z.record(z.string(), z.enum(["value", "reference"])).default({}),
  response: z.enum(["document", "raw"]).default("document"),
});
export type TOgcAnswer = z.infer<typeof ZOgcAnswer>;

/** The value of an OGC qualified value (`{"value": ...}`), else `raw` itself. */
function unqualified(raw: unknown): unknown {
  return raw && typeof raw === "object" && !Array.isArray(raw) && "value" in raw ? (raw as { value: unknown }).value : raw;
}

/** One flow input value as the HTTP door takes it. */
function inputForm(kind: "layer" | "table" | "area", raw: unknown): unknown {
  // A link (OGC `link.yaml`: href, type, rel, title, hreflang): the HTTP door's `{"href", "type"}`.
  if (raw && typeof raw === "object" && typeof (raw as { href?: unknown }).href === "string") {
    const { href, type } = raw as { href: string; type?: unknown };
    return type === undefined ? { href } : { href, type };
  }
  const v = unqualified(raw);
  if (Array.isArray(v) && kind === "table") return { rows: v };
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const type = (v as { type?: unknown }).type;
    if (type === "FeatureCollection") return { geojson: v };
    if (type === "Polygon" && kind === "area") return { area: v };
  }
  return v;
}

/**
 * The HTTP door's run request body for `req` against `flow`, how the results are answered,
 * and the faults of the execute request itself (an unknown input or output, a media type the
 * output is not written in) named `/inputs/<id>` or `/outputs/<key>/...`: the door lists them
 * with the body's own (lib/runs/check-run-request.ts).
 */
export function toRunRequest(flow: TFlowVersion, req: TExecuteRequest): { body: Record<string, unknown>; answer: TOgcAnswer; errors: TFieldError[] } {
  const errors: TFieldError[] = [];
  const inputs: Record<string, unknown> = {};
  const parameters: Record<string, unknown> = {};
  const paramIds = parameterInputIds(flow);
  for (const [id, value] of Object.entries(req.inputs ?? {})) {
    const input = flow.inputs.find((i) => i.name === id);
    if (input) inputs[id] = inputForm(input.kind, value);
    else if (paramIds.has(id)) parameters[paramIds.get(id)!] = unqualified(value);
    else errors.push({ field: `/inputs/${id}`, code: "unknown_input", message: `The process has no input "${id}".` });
  }
  const formats: Record<string, string> = {};
  const transmission: TTransmission = {};
  for (const [key, out] of Object.entries(req.outputs ?? {})) {
    const result = flow.results.find((r) => r.key === key);
    if (!result) {
      errors.push({ field: `/outputs/${key}`, code: "unknown_output", message: `The process has no output "${key}".` });
      continue;
    }
    if (out.transmissionMode) transmission[key] = out.transmissionMode;
    const mediaType = out.format?.mediaType;
    if (mediaType === undefined) continue;
    const format = formatOfMediaType(result.kind, mediaType);
    if (format) formats[key] = format;
    else errors.push({ field: `/outputs/${key}/format/mediaType`, code: "unsupported_format", message: `Output "${key}" is not available as ${mediaType}.` });
  }
  const subscriber = req.subscriber !== undefined ? { subscriber: req.subscriber } : {};
  const named = Object.keys(req.outputs ?? {}).filter((key) => flow.results.some((r) => r.key === key));
  return {
    body: { inputs, ...(Object.keys(parameters).length ? { parameters } : {}), ...(Object.keys(formats).length ? { formats } : {}), ...subscriber },
    answer: { ...(named.length ? { outputs: named } : {}), transmission, response: req.response ?? "document" },
    errors,
  };
}
