/**
 * A published Flow API as an OGC process (OGC 18-062r2, `processSummary.yaml` and
 * `process.yaml`): its id is the API's slug, its inputs are the flow's inputs and
 * parameters with the JSON Schema of the HTTP door's request body (lib/openapi/schemas.ts,
 * so both doors accept exactly the same values), written as OpenAPI 3.0 schema objects as the
 * standard asks (lib/ogc/oas30-schema.ts), its outputs the flow's results in the formats
 * their kind has (lib/formats/registry.ts).
 *
 * A parameter whose name is also an input's is the process input `parameters.<name>`.
 */
import type { TFlowVersion } from "@/lib/flows/definition";
import type { TReadableLayer } from "@/lib/flows/input-geometry";
import { FORMATS, type TResultFormat } from "@/lib/formats/registry";
import type { TJsonSchema } from "@/lib/openapi/types";
import { requestSchema } from "@/lib/openapi/schemas";
import { OGC_REL, type TOgcLink } from "@/lib/ogc/conformance";
import { toOas30Schema } from "@/lib/ogc/oas30-schema";

/** What the door knows of one process: the API and the flow version it serves. */
interface TOgcProcessSource {
  slug: string;
  name: string;
  description: string | null;
  flowVersion: number;
  flow: TFlowVersion;
}

/** The largest `limit` of the process list (OGC 18-062r2 `limit.yaml`). */
export const PROCESS_LIST_LIMIT_MAX = 10_000;

/** The job control options and transmission modes every process offers. */
const JOB_CONTROL_OPTIONS = ["sync-execute", "async-execute", "dismiss"] as const;
const OUTPUT_TRANSMISSION = ["value", "reference"] as const;

/** The process input id of each parameter (its name, or `parameters.<name>` when an input has that name). */
export function parameterInputIds(flow: TFlowVersion): Map<string, string> {
  const inputs = new Set(flow.inputs.map((i) => i.name));
  return new Map(flow.parameters.map((p) => [inputs.has(p.name) ? `parameters.${p.name}` : p.name, p.name]));
}

/** The formats a result kind is written in, as OGC output schemas (one per format). */
function outputSchemas(kind: "layer" | "table"): TJsonSchema[] {
  return FORMATS.filter((f) => (f.kinds as readonly string[]).includes(kind)).map((f) =>
    f.name === "geojson"
      ? { type: "object", contentMediaType: f.mediaType, description: "A GeoJSON FeatureCollection (RFC 7946)." }
      : f.mediaType.startsWith("text/")
        ? { type: "string", contentMediaType: f.mediaType }
        : { type: "string", contentEncoding: "binary", contentMediaType: f.mediaType },
  );
}

/** The format of `kind` whose media type is `mediaType` (parameters ignored), or null. */
export function formatOfMediaType(kind: "layer" | "table", mediaType: string): TResultFormat | null {
  const bare = (m: string) => m.split(";")[0]!.trim().toLowerCase();
  const f = FORMATS.find((x) => (x.kinds as readonly string[]).includes(kind) && bare(x.mediaType) === bare(mediaType));
  return f ? f.name : null;
}

/** The process summary (`GET /processes` lists them). */
export function processSummary(p: TOgcProcessSource, base: string) {
  const self = `${base}/processes/${p.slug}`;
  return {
    id: p.slug,
    title: p.name,
    ...(p.description || p.flow.description ? { description: p.description ?? p.flow.description } : {}),
    version: String(p.flowVersion),
    jobControlOptions: [...JOB_CONTROL_OPTIONS],
    outputTransmission: [...OUTPUT_TRANSMISSION],
    links: [
      { href: self, rel: "self", type: "application/json", title: "Process description" },
      { href: `${self}/execution`, rel: OGC_REL.execute, type: "application/json", title: "Execute the process" },
    ] satisfies TOgcLink[],
  };
}

/**
 * The process description (`GET /processes/{api}`). A layer input's `layer_id` names the
 * layers the caller may read that fit it (`readable`: of the key's environment and the API's
 * workspace), in its description and `example`, as the HTTP door's OpenAPI document does.
 */
export function processDescription(p: TOgcProcessSource, base: string, readable: readonly TReadableLayer[] = []) {
  const schema = requestSchema(p.flow, readable) as { properties: Record<string, { properties?: Record<string, TJsonSchema>; required?: string[] }> };
  const inputSchemas = schema.properties.inputs?.properties ?? {};
  const requiredInputs = new Set(schema.properties.inputs?.required ?? []);
  const paramSchemas = schema.properties.parameters?.properties ?? {};
  const requiredParams = new Set(schema.properties.parameters?.required ?? []);
  const input = (title: string, description: string | undefined, required: boolean, piece: TJsonSchema | undefined) => ({
    title,
    ...(description ? { description } : {}),
    minOccurs: required ? 1 : 0,
    maxOccurs: 1,
    schema: toOas30Schema(piece ?? {}),
  });
  const inputs: Record<string, unknown> = {};
  for (const i of p.flow.inputs) inputs[i.name] = input(i.name, i.description, requiredInputs.has(i.name), inputSchemas[i.name]);
  for (const [id, name] of parameterInputIds(p.flow)) {
    const param = p.flow.parameters.find((x) => x.name === name)!;
    inputs[id] = input(name, param.description, requiredParams.has(name), paramSchemas[name]);
  }
  const outputs: Record<string, unknown> = {};
  for (const r of p.flow.results) {
    outputs[r.key] = {
      title: r.key,
      ...(r.description ? { description: r.description } : {}),
      schema: { oneOf: outputSchemas(r.kind) },
    };
  }
  return { ...processSummary(p, base), inputs, outputs };
}
