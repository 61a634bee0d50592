/**
 * The view model of an API's docs page, read from its OpenAPI document (so the page shows
 * exactly what the document says): inputs with their accepted forms (and a table input's
 * declared columns), parameters with type, default and range, results with formats, media
 * types and columns, operations with every status
 * code, the problem codes, and copy-paste examples (curl, Python requests, JavaScript
 * fetch). Pure; unit-tested in docs-model.test.ts.
 */
import type { TJsonSchema, TOpenApiDocument } from "@/lib/openapi/types";
import { layersFitting, type TGeometryDeclaration, type TReadableLayer } from "@/lib/flows/input-geometry";

export interface TDocsInput {
  name: string;
  required: boolean;
  forms: string[];
  /** The flow's input kind: layer, table or area. */
  kind?: string;
  /** A layer input's declared geometry: point, line, polygon or any. */
  geometry?: string;
  description: string;
  /** Declared columns of a table input, or properties of a layer input (`x-columns`): each row or caller feature is checked against them. */
  columns: TDocsColumn[];
}
/** A declared column of a table input, or property of a layer input. */
export interface TDocsColumn {
  name: string;
  type: string;
  required: boolean;
  range: string;
  description: string;
}
export interface TDocsResult {
  key: string;
  kind: string;
  formats: string[];
  mediaTypes: string[];
  path: string;
  description: string;
  /** Columns (properties of a layer) every run has, in order (`x-result-columns`): name, type as the flow derives it, Parquet type. */
  columns: { name: string; type: string; parquetType: string }[];
  /** Further columns may follow, named by the input data. */
  moreColumns: boolean;
}
export interface TDocsOperation {
  method: string;
  path: string;
  summary: string;
  description: string;
  responses: { status: string; description: string }[];
}
/** A small valid polygon for examples (around Zurich). */
export const EXAMPLE_AREA = {
  type: "Polygon",
  coordinates: [
    [
      [8.4, 47.3],
      [8.7, 47.3],
      [8.7, 47.45],
      [8.4, 47.45],
      [8.4, 47.3],
    ],
  ],
};

/** `node`, or what its `$ref` (`#/components/...`) points at. */
function resolve(doc: TOpenApiDocument, node: unknown): Record<string, unknown> {
  const ref = (node as { $ref?: string } | undefined)?.$ref;
  const target = ref
    ? ref
        .replace(/^#\//, "")
        .split("/")
        .reduce<unknown>((cur, part) => (cur as Record<string, unknown>)?.[part], doc)
    : node;
  return (target ?? {}) as Record<string, unknown>;
}

function formsOf(schema: TJsonSchema): string[] {
  const variants = (schema.anyOf as TJsonSchema[] | undefined) ?? [schema];
  return variants.flatMap((v) => ((v.required as string[] | undefined) ?? []).slice(0, 1)).filter((f) => f !== undefined);
}

function rangeOf(s: TJsonSchema): string {
  const parts: string[] = [];
  if (Array.isArray(s.enum)) return `one of ${(s.enum as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
  if (typeof s.exclusiveMinimum === "number") parts.push(`> ${s.exclusiveMinimum}`);
  if (typeof s.minimum === "number") parts.push(`>= ${s.minimum}`);
  if (typeof s.maximum === "number" && s.maximum < Number.MAX_SAFE_INTEGER) parts.push(`<= ${s.maximum}`);
  if (typeof s.exclusiveMaximum === "number") parts.push(`< ${s.exclusiveMaximum}`);
  if (typeof s.maxLength === "number") parts.push(`at most ${s.maxLength} characters`);
  return parts.join(", ");
}

/** A geometry of the declared family for examples (`any`: a point). */
function exampleGeometry(geometry: string | undefined): Record<string, unknown> {
  if (geometry === "polygon") return EXAMPLE_AREA;
  if (geometry === "line") return { type: "LineString", coordinates: [[8.4, 47.3], [8.7, 47.45]] }; // prettier-ignore
  return { type: "Point", coordinates: [8.54, 47.37] };
}

/**
 * An example value for an input: the best readable layer that fits the input's kind and
 * declared geometry when there is one (so the example runs as pasted, whatever else was
 * uploaded; lib/flows/input-geometry.ts `layersFitting`), else the first other form the input
 * takes, with a geometry of the declared type.
 */
function exampleInput(input: TDocsInput, layers: readonly TReadableLayer[]): unknown {
  const kind = input.kind === "table" || input.kind === "area" ? input.kind : "layer";
  const [layer] = layersFitting(layers, { name: input.name, kind, geometry: input.geometry as TGeometryDeclaration | undefined });
  const form = input.forms.find((f) => f !== "layer_id" || layer) ?? input.forms[0];
  switch (form) {
    case "layer_id":
      return { layer_id: layer?.id ?? "<layer id>" };
    case "rows":
      return { rows: [{ id: "a", lon: 8.54, lat: 47.37 }] };
    case "geojson": {
      const properties = Object.fromEntries(
        input.columns.filter((c) => c.required).map((c) => [c.name, c.type === "string" ? "example" : c.type === "boolean" ? true : 1]),
      );
      return { geojson: { type: "FeatureCollection", features: [{ type: "Feature", geometry: exampleGeometry(input.geometry), properties }] } };
    }
    case "area":
      return { area: EXAMPLE_AREA };
    default:
      return null;
  }
}

/**
 * Builds the view model (see module doc). `apiKeyPlaceholder` goes into the examples;
 * `layers` are the layers the environment may read, used by the examples and listed.
 */
export function docsModel(doc: TOpenApiDocument, apiKeyPlaceholder = "YOUR_API_KEY", layers: readonly TReadableLayer[] = []) {
  const body = doc.components.schemas.RunRequest as { properties: Record<string, TJsonSchema> };
  const inputsSchema = body.properties.inputs as { properties?: Record<string, TJsonSchema>; required?: string[] };
  const paramsSchema = (body.properties.parameters ?? {}) as { properties?: Record<string, TJsonSchema>; required?: string[] };

  const inputs: TDocsInput[] = Object.entries(inputsSchema.properties ?? {}).map(([name, s]) => ({
    name,
    required: (inputsSchema.required ?? []).includes(name),
    forms: formsOf(s),
    kind: typeof s["x-input-kind"] === "string" ? s["x-input-kind"] : undefined,
    geometry: typeof s["x-geometry"] === "string" ? s["x-geometry"] : undefined,
    description: String(s.description ?? ""),
    columns: (Array.isArray(s["x-columns"]) ? (s["x-columns"] as Record<string, unknown>[]) : []).map((c) => ({
      name: String(c.name),
      type: String(c.type),
      required: c.required === true,
      range: [c.minimum !== undefined ? `≥ ${String(c.minimum)}` : "", c.maximum !== undefined ? `≤ ${String(c.maximum)}` : ""].filter(Boolean).join(", "),
      description: String(c.description ?? ""),
    })),
  }));
  const parameters = Object.entries(paramsSchema.properties ?? {}).map(([name, s]) => ({
    name,
    type: Array.isArray(s.enum) ? "string (enum)" : String(s.type ?? "any"),
    required: (paramsSchema.required ?? []).includes(name),
    default: s.default === undefined ? "" : JSON.stringify(s.default),
    range: rangeOf(s),
    description: String(s.description ?? ""),
  }));

  const results: TDocsResult[] = [];
  const operations: TDocsOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, opRaw] of Object.entries(item)) {
      if (method === "parameters") continue;
      const op = opRaw as {
        summary?: string;
        description?: string;
        responses?: Record<string, unknown>;
        parameters?: unknown[];
        "x-result-kind"?: string;
        "x-result-columns"?: { columns: { name: string; type: string; parquet_type: string }[]; more_columns: boolean };
      };
      const responses = Object.entries(op.responses ?? {}).map(([status, r]) => ({
        status,
        description: String(resolve(doc, r).description ?? (r as { description?: string }).description ?? ""),
      }));
      operations.push({ method: method.toUpperCase(), path, summary: op.summary ?? "", description: op.description ?? "", responses });
      const m = /^\/runs\/\{run_id\}\/results\/(.+)$/.exec(path);
      if (m && op["x-result-kind"]) {
        const format = (op.parameters ?? []).map((p) => resolve(doc, p)).find((p) => p.name === "format") as { schema?: { enum?: string[] } } | undefined;
        results.push({
          key: m[1]!,
          kind: op["x-result-kind"],
          formats: format?.schema?.enum ?? [],
          mediaTypes: Object.keys((op.responses?.["200"] as { content?: object })?.content ?? {}),
          path,
          description: op.description ?? "",
          columns: (op["x-result-columns"]?.columns ?? []).map((c) => ({ name: c.name, type: c.type, parquetType: c.parquet_type })),
          moreColumns: op["x-result-columns"]?.more_columns ?? true,
        });
      }
    }
  }

  const problem = doc.components.schemas.Problem as { properties: { code: { "x-error-codes": { code: string; status: number; title: string }[] } } };
  const errorCodes = problem.properties.code["x-error-codes"].map((c) => ({ code: c.code, description: `${c.status} - ${c.title}` }));

  const exampleBody: Record<string, unknown> = {
    inputs: Object.fromEntries(inputs.map((i) => [i.name, exampleInput(i, layers)])),
  };
  const withDefaults = parameters.filter((p) => p.default !== "");
  if (withDefaults.length) exampleBody.parameters = Object.fromEntries(withDefaults.map((p) => [p.name, JSON.parse(p.default)]));
  exampleBody.wait_seconds = 30;

  const baseUrl = doc.servers[0]?.url ?? "";
  const json = JSON.stringify(exampleBody, null, 2);
  const firstResult = results[0]?.key ?? "<key>";
  const curl = [
    `BASE=${baseUrl}`,
    `KEY=${apiKeyPlaceholder}`,
    "",
    "# Start a run and wait up to 30 s for it (200 when finished, else 202 with Location)",
    `curl -s -X POST "$BASE/runs" -H "X-Api-Key: $KEY" -H "Content-Type: application/json" \\`,
    `  -d '${JSON.stringify(exampleBody)}'`,
    "",
    "# Follow the run, then download a result",
    `curl -s -H "X-Api-Key: $KEY" "$BASE/runs/<run_id>"`,
    `curl -s -H "X-Api-Key: $KEY" -OJ "$BASE/runs/<run_id>/results/${firstResult}"`,
  ].join("\n");
  const python = [
    "import time, requests",
    "",
    `BASE = "${baseUrl}"`,
    `HEADERS = {"X-Api-Key": "${apiKeyPlaceholder}"}`,
    "",
    `body = ${json
      .replace(/\bnull\b/g, "None")
      .replace(/\btrue\b/g, "True")
      .replace(/\bfalse\b/g, "False")}`,
    'r = requests.post(f"{BASE}/runs", json=body, headers=HEADERS)',
    "r.raise_for_status()",
    "run = r.json()",
    'while run["state"] in ("queued", "running"):',
    '    time.sleep(int(r.headers.get("Retry-After", "1")))',
    "    r = requests.get(f\"{BASE}/runs/{run['run_id']}\", headers=HEADERS)",
    "    run = r.json()",
    'if run["state"] == "completed":',
    '    for result in run["results"]:',
    '        data = requests.get(BASE.split("/public/")[0] + result["href"], headers=HEADERS).content',
    '        print(result["key"], result["format"], len(data), "bytes")',
    "else:",
    '    print(run["state"], run.get("error"))',
  ].join("\n");
  const javascript = [
    `const BASE = "${baseUrl}";`,
    `const headers = { "X-Api-Key": "${apiKeyPlaceholder}", "Content-Type": "application/json" };`,
    "",
    `const body = ${json};`,
    'let res = await fetch(`${BASE}/runs`, { method: "POST", headers, body: JSON.stringify(body) });',
    "if (!res.ok) throw new Error(JSON.stringify(await res.json())); // RFC 9457 problem details",
    "let run = await res.json();",
    'while (run.state === "queued" || run.state === "running") {',
    '  await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get("Retry-After") ?? 1)));',
    "  res = await fetch(`${BASE}/runs/${run.run_id}`, { headers });",
    "  run = await res.json();",
    "}",
    'if (run.state === "completed") {',
    "  for (const result of run.results) {",
    "    const file = await fetch(new URL(result.href, BASE), { headers });",
    "    console.log(result.key, result.media_type, (await file.arrayBuffer()).byteLength);",
    "  }",
    "} else console.log(run.state, run.error);",
  ].join("\n");

  return {
    title: doc.info.title,
    description: doc.info.description,
    baseUrl,
    version: doc.info.version,
    inputs,
    parameters,
    results,
    operations,
    errorCodes,
    /** Layers the environment may read, for `{"layer_id": ...}`. */
    layers: [...layers],
    exampleBody,
    examples: { curl, python, javascript },
  };
}
