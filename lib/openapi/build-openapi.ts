/**
 * The OpenAPI 3.1 document of one published Flow API, derived from the flow version its
 * release pins (nothing mapped by hand), served at `{base}/openapi.json` and rendered by the
 * docs page `/docs/{organization}/{environment}/{api}`.
 *
 * Paths: lib/openapi/paths.ts; schemas (derived from the zod response schemas) and RFC 9457
 * problems: lib/openapi/schemas.ts, lib/openapi/problems.ts; here the `X-Api-Key` security
 * scheme, the shared parameters, the IETF draft RateLimit header fields and `servers`.
 *
 * Pure: no I/O. `serverUrl` is the absolute (or path-absolute) API base.
 */
import { MAX_INPUT_ROWS, MAX_WAIT_SECONDS } from "@/lib/flows/run-request";
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from "@/lib/runs/run-document";
import { RUN_STATES } from "@/lib/runs/run-state-names";
import { buildPaths, STANDARD_HEADERS } from "@/lib/openapi/paths";
import { problemResponseComponents } from "@/lib/openapi/problems";
import { buildSchemas } from "@/lib/openapi/schemas";
import type { TJsonSchema, TOpenApiDocument, TOpenApiSource } from "@/lib/openapi/types";

/** An optional header or query parameter (`components.parameters`). */
function optionalParam(name: string, where: "header" | "query", description: string, schema: TJsonSchema) {
  return { name, in: where, required: false, description, schema };
}

/** Builds the document (see module doc). */
export function buildOpenApi(src: TOpenApiSource): TOpenApiDocument {
  const { flow } = src;
  const resultKeys = flow.results.map((r) => r.key);
  const description = [
    src.description ?? flow.description ?? "",
    "",
    `Published Flow API \`${src.api}\` in environment \`${src.environment}\` of \`${src.organization}\`, serving flow version ${src.flowVersion}.`,
    "Every call carries an API key in `X-Api-Key`. Errors are RFC 9457 problem details (`application/problem+json`).",
    "A method a path does not list answers 405 with `Allow`. Browser pages may call from the origins the environment allows (CORS; none by default); `OPTIONS` answers their preflight.",
    `Limits: ${MAX_INPUT_ROWS} rows per rows input and ${MAX_INPUT_ROWS} features per geojson input; wait_seconds 0..${MAX_WAIT_SECONDS}; request body at most ${src.maxBodyBytes} bytes.`,
  ]
    .join("\n")
    .trim();

  return {
    openapi: "3.1.0",
    info: { title: src.name, version: String(src.flowVersion), description, "x-flow-version": src.flowVersion },
    servers: [{ url: src.serverUrl, description: `${src.organization} / ${src.environment}` }],
    security: [{ ApiKey: [] }],
    tags: [
      { name: "Runs", description: "Start, follow, list and cancel runs." },
      { name: "Results", description: `Result files: ${resultKeys.join(", ")}.` },
    ],
    paths: buildPaths(flow),
    components: {
      securitySchemes: {
        ApiKey: {
          type: "apiKey",
          in: "header",
          name: "X-Api-Key",
          description: "The secret of an API key (fapi_ + 32 base62 characters) given access to this API.",
        },
      },
      parameters: {
        RunId: { name: "run_id", in: "path", required: true, description: "The run's id.", schema: { type: "string", format: "uuid" } },
        IdempotencyKey: optionalParam(
          "Idempotency-Key",
          "header",
          "IETF draft Idempotency-Key: 1 to 255 visible ASCII characters (a UUID is best). The same key with the same body returns the same run and starts nothing; with a different body: 422. Remembered at least 24 h.",
          { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
        ),
        Prefer: optionalParam(
          "Prefer",
          "header",
          "RFC 7240: `respond-async` answers 202 at once; `wait=<seconds>` waits like `wait_seconds` (at most 60; `wait_seconds` in the body wins). The answer names what it honoured in `Preference-Applied`.",
          { type: "string" },
        ),
        IfNoneMatch: optionalParam("If-None-Match", "header", "An ETag from an earlier download: 304 when unchanged.", { type: "string" }),
        State: optionalParam("state", "query", "Only runs in this state.", { type: "string", enum: [...RUN_STATES] }),
        Limit: optionalParam("limit", "query", "Runs per page.", { type: "integer", minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT }),
        Cursor: optionalParam("cursor", "query", "`next_cursor` of the previous page (opaque).", { type: "string" }),
      },
      headers: {
        "RateLimit-Policy": {
          description: 'IETF draft "RateLimit header fields for HTTP": the quota, e.g. `"per-key";q=600;w=60` (600 calls per 60 s per key).',
          schema: { type: "string" },
        },
        RateLimit: {
          description: 'IETF draft: what is left, e.g. `"per-key";r=599;t=37` (599 calls left, window resets in 37 s).',
          schema: { type: "string" },
        },
        "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 1 } },
      },
      responses: problemResponseComponents(STANDARD_HEADERS),
      schemas: buildSchemas(flow, src.api, src.readableLayers),
    },
  };
}
