/**
 * The OpenAPI 3.1 document of one published Flow API, derived from the flow version its
 * release pins (nothing mapped by hand), served at `{base}/openapi.json` and rendered by the
 * docs page `/docs/{organization}/{environment}/{api}`.
 *
 * It describes:
 * - `POST /runs`: the request body schema of `runRequestJsonSchema(flow)` (JSON Schema
 *   2020-12, the dialect of OpenAPI 3.1) and every answer: 200, 202 (`Location`,
 *   `Retry-After`), 400, 401, 403, 404, 413, 415, 422, 429, 500, 503;
 * - `GET /runs` (list, cursor paging, `Link`), `GET /runs/{run_id}`,
 *   `POST /runs/{run_id}/cancel`;
 * - one path per result key, `GET /runs/{run_id}/results/<key>`, with the media types of
 *   that result's kind, its `format` query values, `ETag`, `Content-Disposition`, 304;
 * - the run document, RFC 9457 problem details (with `errors` by JSON Pointer), the
 *   `X-Api-Key` security scheme, the IETF draft RateLimit header fields, and `servers`.
 *
 * Pure: no I/O. `serverUrl` is the absolute (or path-absolute) API base.
 */
import type { TFlowVersion } from "@/lib/flows/definition";
import { MAX_INPUT_ROWS, MAX_WAIT_SECONDS, runRequestJsonSchema } from "@/lib/flows/run-request";
import { DEFAULT_FORMAT, FORMAT_INFO, FORMATS_BY_KIND } from "@/lib/formats/types";
import { ERROR_STATUS, ERROR_TITLE, type TErrorCode } from "@/lib/api/errors";
import { PROBLEM_TYPE_BASE } from "@/lib/api/problem";
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, RUN_STATES } from "@/lib/runs/run-document";

export interface TOpenApiSource {
  organization: string;
  environment: string;
  api: string;
  /** Display name of the API. */
  name: string;
  description: string | null;
  flowVersion: number;
  flow: TFlowVersion;
  /** API base, e.g. `https://host/public/api/demo/production/cities-in-area`. */
  serverUrl: string;
  /** Request body limit, bytes (413 above it). */
  maxBodyBytes: number;
}

export type TJsonSchema = Record<string, unknown>;

export interface TOpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string; "x-flow-version": number };
  servers: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, TJsonSchema>;
    securitySchemes: Record<string, unknown>;
    headers: Record<string, unknown>;
    responses: Record<string, unknown>;
    parameters: Record<string, unknown>;
  };
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** The problem responses a call can meet, by status, as component names. */
const PROBLEM_RESPONSES: Record<string, { status: number; description: string }> = {
  BadRequest: { status: 400, description: "The body is not valid JSON (problem `bad_request`)." },
  Unauthorized: { status: 401, description: "The X-Api-Key header is missing, or the key is unknown, revoked, expired or of another environment (problem `unauthorized`)." },
  Forbidden: { status: 403, description: "The key's consumer has no access grant for this API (problem `forbidden`)." },
  NotFound: { status: 404, description: "Not found (problem `not_found`): the API is not published in this environment, or the run does not exist or belongs to another consumer (indistinguishable)." },
  Conflict: { status: 409, description: "The run's state does not allow this (problem `conflict`)." },
  PayloadTooLarge: { status: 413, description: "The body exceeds the request size limit (problem `payload_too_large`)." },
  UnsupportedMediaType: { status: 415, description: "Content-Type is not application/json (problem `unsupported_media_type`)." },
  ValidationFailed: {
    status: 422,
    description: "The request is invalid (problem `validation_failed`, or `idempotency_key_reused` for an Idempotency-Key sent before with a different body). `errors` names every faulty field by JSON Pointer. No run is started and nothing is counted.",
  },
  TooManyRequests: { status: 429, description: "The key's rate limit is exhausted (problem `rate_limited`); retry after `Retry-After` seconds. Not counted." },
  InternalError: { status: 500, description: "An unexpected error (problem `internal`); no internals are disclosed." },
  ServiceUnavailable: { status: 503, description: "The service is temporarily unavailable (problem `service_unavailable`): database unreachable, or no worker to run flows (POST /runs only). Retry after `Retry-After` seconds." },
};

function problemResponse(name: keyof typeof PROBLEM_RESPONSES) {
  return { [String(PROBLEM_RESPONSES[name]!.status)]: ref("responses", name) };
}

function problemResponses(...names: (keyof typeof PROBLEM_RESPONSES)[]) {
  return Object.assign({}, ...names.map(problemResponse)) as Record<string, unknown>;
}

/** Strips the `$schema` keyword (the document's dialect is OpenAPI 3.1's default, 2020-12). */
function embeddable(schema: TJsonSchema): TJsonSchema {
  const { $schema: _drop, ...rest } = schema;
  return rest;
}

/** The request body schema with the documentation the flow does not carry itself. */
function requestSchema(flow: TFlowVersion): TJsonSchema {
  const s = embeddable(runRequestJsonSchema(flow)) as { properties: Record<string, TJsonSchema> } & TJsonSchema;
  const props = s.properties;
  props.inputs = {
    ...props.inputs,
    description:
      'One value per input of the flow, exactly one form each: {"layer_id"} (a layer this environment may read), {"geojson"} (a GeoJSON FeatureCollection, RFC 7946), ' +
      `{"rows"} (table rows, at most ${MAX_INPUT_ROWS}), {"area"} (one valid, simple GeoJSON Polygon); null only for optional inputs.`,
  };
  if (props.parameters) props.parameters = { ...props.parameters, description: "Parameters of the flow; omitted ones take their default." };
  if (props.formats) {
    props.formats = {
      ...props.formats,
      description: `File format per result key. Defaults: ${DEFAULT_FORMAT.layer} for layers, ${DEFAULT_FORMAT.table} for tables. Both formats stay downloadable with ?format=.`,
    };
  }
  props.wait_seconds = {
    ...props.wait_seconds,
    description: `Wait up to this many seconds (0..${MAX_WAIT_SECONDS}) for the run to finish: 200 with the final run if it does, else 202.`,
  };
  return s;
}

/** Builds the document (see module doc). */
export function buildOpenApi(src: TOpenApiSource): TOpenApiDocument {
  const { flow } = src;
  const resultKeys = flow.results.map((r) => r.key);
  const errorCodes = Object.keys(ERROR_STATUS) as TErrorCode[];
  const stdHeaders = {
    "RateLimit-Policy": ref("headers", "RateLimit-Policy"),
    RateLimit: ref("headers", "RateLimit"),
  };
  const runResponse = (description: string, extra: Record<string, unknown> = {}) => ({
    description,
    headers: { ...stdHeaders, ...extra },
    content: { "application/json": { schema: ref("schemas", "Run") } },
  });
  const authProblems = problemResponses("Unauthorized", "Forbidden", "NotFound", "TooManyRequests", "InternalError", "ServiceUnavailable");

  const paths: TOpenApiDocument["paths"] = {
    "/runs": {
      post: {
        operationId: "startRun",
        tags: ["Runs"],
        summary: "Start a run",
        description:
          "Starts a run of the flow with the inputs and parameters in the body. Answers 202 at once (or, with `wait_seconds`, 200 when the run reaches a final state in time: completed, failed or cancelled). " +
          "An accepted run counts as one ETL run and one API request.",
        parameters: [ref("parameters", "IdempotencyKey")],
        requestBody: { required: true, content: { "application/json": { schema: ref("schemas", "RunRequest") } } },
        responses: {
          "200": runResponse("The run reached a final state within `wait_seconds` (completed with `results`, failed with `error`, or cancelled)."),
          "202": runResponse("The run is accepted and not final yet; poll `Location`.", {
            Location: { description: "Path of the run (= links.self).", schema: { type: "string" } },
            "Retry-After": { description: "Seconds to wait before polling.", schema: { type: "integer", minimum: 1 } },
          }),
          ...problemResponses("BadRequest", "PayloadTooLarge", "UnsupportedMediaType", "ValidationFailed"),
          ...authProblems,
        },
      },
      get: {
        operationId: "listRuns",
        tags: ["Runs"],
        summary: "List your runs",
        description: "The calling consumer's runs of this API, newest first, without results (GET a run for its results). Cursor paging; the next page is also in `Link: <...>; rel=\"next\"`.",
        parameters: [ref("parameters", "State"), ref("parameters", "Limit"), ref("parameters", "Cursor")],
        responses: {
          "200": {
            description: "One page of runs.",
            headers: { ...stdHeaders, Link: { description: 'RFC 8288 link to the next page, rel="next" (absent on the last page).', schema: { type: "string" } } },
            content: { "application/json": { schema: ref("schemas", "RunList") } },
          },
          ...problemResponses("ValidationFailed"),
          ...authProblems,
        },
      },
    },
    "/runs/{run_id}": {
      parameters: [ref("parameters", "RunId")],
      get: {
        operationId: "getRun",
        tags: ["Runs"],
        summary: "Get a run",
        description: "The run and its state; `results` once completed, `error` when failed.",
        responses: { "200": runResponse("The run."), ...authProblems },
      },
    },
    "/runs/{run_id}/cancel": {
      parameters: [ref("parameters", "RunId")],
      post: {
        operationId: "cancelRun",
        tags: ["Runs"],
        summary: "Cancel a run",
        description: "Cancels a queued or running run; its work stops. A run that already finished: 409.",
        responses: { "200": runResponse("The cancelled run."), ...problemResponses("Conflict"), ...authProblems },
      },
    },
  };

  for (const r of flow.results) {
    const formats = FORMATS_BY_KIND[r.kind];
    const content: Record<string, unknown> = {};
    for (const f of formats) {
      const mt = FORMAT_INFO[f].mediaType;
      content[mt] = { schema: { type: "string", ...(f === "geojson" || f === "csv" ? {} : { contentEncoding: "binary" }) } };
    }
    const extensions = formats.map((f) => `${r.key}.${FORMAT_INFO[f].extension}`).join(" or ");
    paths[`/runs/{run_id}/results/${r.key}`] = {
      parameters: [ref("parameters", "RunId")],
      get: {
        operationId: `getResult_${r.key}`,
        tags: ["Results"],
        summary: `Download result "${r.key}" (${r.kind})`,
        description: `${r.description ?? `Result ${r.key}`}. A ${r.kind} result: ${formats.join(" or ")} (default: the format requested in the run's \`formats\`, else ${DEFAULT_FORMAT[r.kind]}).`,
        "x-result-kind": r.kind,
        parameters: [
          ref("parameters", "IfNoneMatch"),
          {
            name: "format",
            in: "query",
            required: false,
            description: "Download this format instead of the run's requested one.",
            schema: { type: "string", enum: [...formats] },
          },
        ],
        responses: {
          "200": {
            description: `The file, as an attachment named ${extensions}.`,
            headers: {
              ...stdHeaders,
              ETag: { description: "SHA-256 of the file, quoted.", schema: { type: "string" } },
              "Content-Disposition": { description: `attachment; filename="${extensions}"`, schema: { type: "string" } },
            },
            content,
          },
          "304": { description: "Not modified: `If-None-Match` matched the ETag.", headers: { ETag: { schema: { type: "string" } } } },
          "409": { ...ref("responses", "Conflict"), description: "The run has not completed (problem `conflict`)." },
          ...problemResponses("ValidationFailed"),
          ...authProblems,
        },
      },
    };
  }

  const description = [
    src.description ?? flow.description ?? "",
    "",
    `Published Flow API \`${src.api}\` in environment \`${src.environment}\` of \`${src.organization}\`, serving flow version ${src.flowVersion}.`,
    "Every call carries an API key in `X-Api-Key`. Errors are RFC 9457 problem details (`application/problem+json`).",
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
    paths,
    components: {
      securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "X-Api-Key", description: "The secret of an API key (fapi_ + 32 base62 characters) given access to this API." } },
      parameters: {
        RunId: { name: "run_id", in: "path", required: true, description: "The run's id.", schema: { type: "string", format: "uuid" } },
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description:
            "IETF draft Idempotency-Key: 1 to 255 visible ASCII characters (a UUID is best). The same key with the same body returns the same run and starts nothing; with a different body: 422. Remembered at least 24 h.",
          schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x21-\\x7e]+$" },
        },
        IfNoneMatch: { name: "If-None-Match", in: "header", required: false, description: "An ETag from an earlier download: 304 when unchanged.", schema: { type: "string" } },
        State: { name: "state", in: "query", required: false, description: "Only runs in this state.", schema: { type: "string", enum: [...RUN_STATES] } },
        Limit: { name: "limit", in: "query", required: false, description: "Runs per page.", schema: { type: "integer", minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT } },
        Cursor: { name: "cursor", in: "query", required: false, description: "`next_cursor` of the previous page (opaque).", schema: { type: "string" } },
      },
      headers: {
        "RateLimit-Policy": {
          description: 'IETF draft "RateLimit header fields for HTTP": the quota, e.g. `"per-key";q=600;w=60` (600 calls per 60 s per key).',
          schema: { type: "string" },
        },
        RateLimit: { description: 'IETF draft: what is left, e.g. `"per-key";r=599;t=37` (599 calls left, window resets in 37 s).', schema: { type: "string" } },
        "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 1 } },
      },
      responses: Object.fromEntries(
        Object.entries(PROBLEM_RESPONSES).map(([name, r]) => [
          name,
          {
            description: r.description,
            headers: r.status === 429 || r.status === 503 ? { ...stdHeaders, "Retry-After": ref("headers", "Retry-After") } : r.status >= 400 && r.status !== 401 && r.status !== 404 ? stdHeaders : {},
            content: { "application/problem+json": { schema: ref("schemas", "Problem") } },
          },
        ]),
      ),
      schemas: {
        RunRequest: requestSchema(flow),
        Run: {
          type: "object",
          description: "A run. `results` only when completed; `error` only when failed.",
          required: ["run_id", "state", "links", "api", "flow_version", "created_at", "started_at", "finished_at", "progress"],
          properties: {
            run_id: { type: "string", format: "uuid" },
            state: { type: "string", enum: [...RUN_STATES] },
            links: {
              type: "object",
              required: ["self", "cancel"],
              properties: { self: { type: "string", description: "Path of the run." }, cancel: { type: "string", description: "Path to POST to cancel it." } },
            },
            api: { type: "string", const: src.api },
            flow_version: { type: "integer", description: "The flow version the run executes." },
            created_at: { type: "string", format: "date-time" },
            started_at: { type: ["string", "null"], format: "date-time" },
            finished_at: { type: ["string", "null"], format: "date-time" },
            progress: {
              type: "object",
              required: ["steps_done", "steps_total"],
              properties: { steps_done: { type: "integer", minimum: 0 }, steps_total: { type: "integer", minimum: 0 } },
            },
            error: {
              type: "object",
              description: "Why a failed run failed.",
              required: ["code", "message"],
              properties: { code: { type: "string" }, message: { type: "string" }, step: { type: "string" } },
            },
            results: { type: "array", items: ref("schemas", "RunResult") },
          },
        },
        RunResult: {
          type: "object",
          required: ["key", "kind", "format", "media_type", "href", "size_bytes"],
          properties: {
            key: { type: "string", enum: resultKeys },
            kind: { type: "string", enum: ["layer", "table"] },
            format: { type: "string", enum: ["geojson", "geoparquet", "csv", "parquet"] },
            media_type: { type: "string" },
            href: { type: "string", description: "Path to download the file." },
            size_bytes: { type: "integer", minimum: 0 },
            feature_count: { type: "integer", minimum: 0, description: "Layers only." },
            row_count: { type: "integer", minimum: 0, description: "Tables only." },
          },
        },
        RunList: {
          type: "object",
          required: ["runs", "next_cursor"],
          properties: {
            runs: { type: "array", items: ref("schemas", "Run") },
            next_cursor: { type: ["string", "null"], description: "Pass as `cursor` for the next page; null on the last page." },
          },
        },
        Problem: {
          type: "object",
          description: "RFC 9457 problem details.",
          required: ["type", "title", "status", "detail", "code"],
          properties: {
            type: { type: "string", format: "uri", description: `${PROBLEM_TYPE_BASE}<code with dashes>` },
            title: { type: "string" },
            status: { type: "integer" },
            detail: { type: "string" },
            instance: { type: "string", description: "Path of the request." },
            code: {
              type: "string",
              enum: errorCodes,
              description: errorCodes.map((c) => `\`${c}\` (${ERROR_STATUS[c]}): ${ERROR_TITLE[c]}`).join("; "),
            },
            errors: { type: "array", description: "422 only: one entry per faulty field.", items: ref("schemas", "FieldError") },
          },
        },
        FieldError: {
          type: "object",
          required: ["field", "code", "message"],
          properties: {
            field: { type: "string", description: "JSON Pointer (RFC 6901) into the request, e.g. /parameters/top, /inputs/area/area/coordinates/0, /headers/Idempotency-Key, /query/format." },
            code: { type: "string" },
            message: { type: "string" },
          },
        },
      },
    },
  };
}
