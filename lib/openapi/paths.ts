/**
 * The `paths` of a published API's OpenAPI document: `POST /runs`, `GET /runs`,
 * `GET /runs/{run_id}`, `POST /runs/{run_id}/cancel`, and one download path per result key
 * with the media types of its kind, its `format` values, `ETag`, `Content-Disposition` and 304;
 * `POST /runs` declares the callbacks of the body's `subscriber`.
 */
import { resultColumns } from "@/lib/engine/result-columns";
import { UNKNOWN_COLUMNS, type TColumns, type TFieldType } from "@/lib/steps/columns";
import type { TFlowVersion } from "@/lib/flows/definition";
import { DEFAULT_FORMAT, FORMAT_INFO, FORMATS_BY_KIND } from "@/lib/formats/registry";
import { problemResponses, ref } from "@/lib/openapi/problems";
import type { TOpenApiDocument } from "@/lib/openapi/types";

/** The rate-limit header fields every answer to an authenticated call carries. */
export const STANDARD_HEADERS = {
  "RateLimit-Policy": ref("headers", "RateLimit-Policy"),
  RateLimit: ref("headers", "RateLimit"),
};

const runResponse = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  headers: { ...STANDARD_HEADERS, ...extra },
  content: { "application/json": { schema: ref("schemas", "Run") } },
});

/** When each URI of a request's `subscriber` is called, with the run document (unsigned: no secret). */
const SUBSCRIBER_CALLS = {
  successUri: "The run completed.",
  inProgressUri: "The run started (once).",
  failedUri: "The run failed or was cancelled.",
} as const;

/** Every path of the document for `flow`. */
export function buildPaths(flow: TFlowVersion): TOpenApiDocument["paths"] {
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
        parameters: [ref("parameters", "IdempotencyKey"), ref("parameters", "Prefer")],
        requestBody: { required: true, content: { "application/json": { schema: ref("schemas", "RunRequest") } } },
        callbacks: Object.fromEntries(
          Object.entries(SUBSCRIBER_CALLS).map(([uri, summary]) => [
            uri,
            {
              [`{$request.body#/subscriber/${uri}}`]: {
                post: {
                  summary,
                  requestBody: { content: { "application/json": { schema: ref("schemas", "Run") } } },
                  responses: { "2XX": { description: "Received. Any other answer is retried with backoff for about a day." } },
                },
              },
            },
          ]),
        ),
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
        description:
          'The calling consumer\'s runs of this API, newest first, without results (GET a run for its results). Cursor paging; the next page is also in `Link: <...>; rel="next"`.',
        parameters: [ref("parameters", "State"), ref("parameters", "Limit"), ref("parameters", "Cursor")],
        responses: {
          "200": {
            description: "One page of runs.",
            headers: {
              ...STANDARD_HEADERS,
              Link: { description: 'RFC 8288 link to the next page, rel="next" (absent on the last page).', schema: { type: "string" } },
            },
            content: { "application/json": { schema: ref("schemas", "RunList") } },
          },
          ...problemResponses("InvalidQuery"),
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

  const columnsByResult = resultColumns(flow);
  for (const r of flow.results) {
    const formats = FORMATS_BY_KIND[r.kind];
    const columns = columnsByResult[r.key] ?? UNKNOWN_COLUMNS;
    const content = Object.fromEntries(
      formats.map((f) => [FORMAT_INFO[f].mediaType, { schema: { type: "string", ...(FORMAT_INFO[f].binary ? { contentEncoding: "binary" } : {}) } }]),
    );
    const extensions = formats.map((f) => `${r.key}.${FORMAT_INFO[f].extension}`).join(" or ");
    paths[`/runs/{run_id}/results/${r.key}`] = {
      parameters: [ref("parameters", "RunId")],
      get: {
        operationId: `getResult_${r.key}`,
        tags: ["Results"],
        summary: `Download result "${r.key}" (${r.kind})`,
        description: `${r.description ?? `Result ${r.key}`}. A ${r.kind} result: ${formats.join(" or ")} (default: the format requested in the run's \`formats\`, else ${DEFAULT_FORMAT[r.kind]}). ${describeColumns(columns, r.kind)}`,
        "x-result-kind": r.kind,
        "x-result-columns": {
          columns: columns.fields.map((f) => ({ name: f.name, type: f.type, parquet_type: PARQUET_TYPE[f.type] })),
          more_columns: columns.open,
        },
        parameters: [
          ref("parameters", "IfNoneMatch"),
          {
            name: "format",
            in: "query",
            required: false,
            description:
              "Download this format instead of the run's requested one. It is made on the first such request, which waits for it (up to 30 s, then 503 with Retry-After); 422 `format_over_limit` (`/query/format`) when making it passed a run's limit (memory, time or result size).",
            schema: { type: "string", enum: [...formats] },
          },
          ...SIGNED_LINK_PARAMETERS,
        ],
        // A signed download link is its own credential (lib/mcp/result-link.ts): no key with it.
        security: [{ ApiKey: [] }, {}],
        responses: {
          "200": {
            description: `The file, as an attachment named ${extensions}.`,
            headers: {
              ...STANDARD_HEADERS,
              ETag: { description: "SHA-256 of the file, quoted.", schema: { type: "string" } },
              "Content-Disposition": { description: `attachment; filename="${extensions}"`, schema: { type: "string" } },
            },
            content,
          },
          "304": { description: "Not modified: `If-None-Match` matched the ETag.", headers: { ETag: { schema: { type: "string" } } } },
          "409": { ...ref("responses", "Conflict"), description: "The run has not completed (problem `conflict`)." },
          ...problemResponses("InvalidQuery"),
          ...authProblems,
        },
      },
    };
  }

  return paths;
}

/**
 * The query of a signed download link, as the MCP tools hand them out (lib/mcp/result-link.ts):
 * with both, and `format`, the link is the credential and `X-Api-Key` is not needed.
 */
const SIGNED_LINK_PARAMETERS = [
  {
    name: "expires",
    in: "query",
    required: false,
    description: "Of a signed download link: when it stops working, in Unix seconds (an hour after it was made). Comes with `signature` and `format`.",
    schema: { type: "string", pattern: "^[0-9]{1,12}$" },
  },
  {
    name: "signature",
    in: "query",
    required: false,
    description:
      "Of a signed download link: an HMAC-SHA256 (base64url) over this API, the run, the result, `format` and `expires`. With it, no API key is needed; an altered or expired link is answered 401 `unauthorized`. Links are made by the MCP tool `run_result`; take them whole, do not build them.",
    schema: { type: "string" },
  },
];

/** Parquet physical type of a result column of each type (`any`: decided by the run's values). */
const PARQUET_TYPE: Record<TFieldType, string> = { integer: "INT64", number: "DOUBLE", string: "UTF8", boolean: "BOOLEAN", any: "from the data" };

/** One sentence listing a result's columns (also in `x-result-columns`). */
function describeColumns(c: TColumns, kind: "layer" | "table"): string {
  const what = kind === "layer" ? "Properties" : "Columns";
  const list = c.fields.map((f) => `\`${f.name}\` (${f.type})`).join(", ");
  const more = c.open ? "further columns taken from the input data" : "";
  if (!list) return c.open ? `${what}: those of the input data.` : `${what}: none.`;
  return `${what}, on every run: ${list}${more ? `; then ${more}` : ""}.`;
}
