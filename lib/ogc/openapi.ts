/**
 * The OpenAPI 3.0 document of the OGC door of an environment (conformance class oas30): the
 * paths of OGC API - Processes - Part 1 this door serves, their parameters, the `Prefer`
 * header of execution, and the response shapes of OGC 18-062r2 (landing page, conformance,
 * process list and description, statusInfo, job list, results, exception), and the callbacks
 * of the execute request's `subscriber`.
 */

const json = (schema: unknown) => ({ "application/json": { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const exception = (description: string) => ({ description, content: { "application/problem+json": { schema: ref("exception") } } });
const ok = (description: string, schema: unknown) => ({ description, content: json(schema) });
const jobId = { name: "jobId", in: "path", required: true, schema: { type: "string" } };
/** A callback of the execute request: a POST of `schema` to the subscriber's `uri`. */
const callback = (uri: string, schema: string) => ({
  [`{$request.body#/subscriber/${uri}}`]: { post: { requestBody: { content: json(ref(schema)) }, responses: { 200: { description: "Received." } } } },
});
const query = (name: string, description: string | undefined, schema: object) => ({
  name,
  in: "query",
  required: false,
  ...(description && { description }),
  schema,
});
const processId = { name: "processID", in: "path", required: true, schema: { type: "string" } };

const link = {
  type: "object",
  required: ["href"],
  properties: { href: { type: "string" }, rel: { type: "string" }, type: { type: "string" }, title: { type: "string" } },
};

/** A completed execution's answer, synchronous or from `GET /jobs/{jobId}/results` (lib/ogc/answers.ts). */
const RESULTS_200 =
  'the results document (`response: "document"`, the default) of the outputs the request named (all when it named none), or with `response: "raw"` one output by value as itself (its media type) or several as `multipart/related`.';
const RESULTS_CONTENT = {
  ...json(ref("results")),
  "application/geo+json": { schema: { type: "object" } },
  "text/csv": { schema: { type: "string" } },
  "application/vnd.apache.parquet": { schema: { type: "string", format: "binary" } },
  "multipart/related": { schema: { type: "string", format: "binary" } },
};
const RAW_204 = { description: 'With `response: "raw"` and every output by reference: a `Link` header (rel="enclosure") per output.' };

const SCHEMAS = {
  link,
  exception: {
    type: "object",
    required: ["type"],
    properties: { type: { type: "string" }, title: { type: "string" }, status: { type: "integer" }, detail: { type: "string" }, instance: { type: "string" } },
    additionalProperties: true,
  },
  landingPage: {
    type: "object",
    required: ["links"],
    properties: { title: { type: "string" }, description: { type: "string" }, links: { type: "array", items: ref("link") } },
  },
  confClasses: { type: "object", required: ["conformsTo"], properties: { conformsTo: { type: "array", items: { type: "string" } } } },
  processSummary: {
    type: "object",
    required: ["id", "version"],
    properties: {
      id: { type: "string" },
      title: { type: "string" },
      description: { type: "string" },
      version: { type: "string" },
      jobControlOptions: { type: "array", items: { type: "string", enum: ["sync-execute", "async-execute", "dismiss"] } },
      outputTransmission: { type: "array", items: { type: "string", enum: ["value", "reference"] } },
      links: { type: "array", items: ref("link") },
    },
  },
  processList: {
    type: "object",
    required: ["processes", "links"],
    properties: { processes: { type: "array", items: ref("processSummary") }, links: { type: "array", items: ref("link") } },
  },
  process: {
    allOf: [
      ref("processSummary"),
      {
        type: "object",
        properties: {
          inputs: { type: "object", additionalProperties: { type: "object" } },
          outputs: { type: "object", additionalProperties: { type: "object" } },
        },
      },
    ],
  },
  execute: {
    type: "object",
    properties: {
      inputs: { type: "object", additionalProperties: true },
      outputs: {
        type: "object",
        additionalProperties: {
          type: "object",
          properties: {
            format: { type: "object", properties: { mediaType: { type: "string" } } },
            transmissionMode: { type: "string", enum: ["value", "reference"] },
          },
        },
      },
      response: { type: "string", enum: ["document", "raw"], default: "document" },
      subscriber: ref("subscriber"),
    },
  },
  subscriber: {
    type: "object",
    description:
      "Callbacks for this job (requirements class callback): successUri gets the results, inProgressUri the statusInfo once when the job starts, failedUri the statusInfo when it fails or is dismissed. https on a public address, or a host of the environment's outbound allow-list.",
    properties: {
      successUri: { type: "string", format: "uri" },
      inProgressUri: { type: "string", format: "uri" },
      failedUri: { type: "string", format: "uri" },
    },
  },
  statusInfo: {
    type: "object",
    required: ["jobID", "status", "type"],
    properties: {
      processID: { type: "string" },
      type: { type: "string", enum: ["process"] },
      jobID: { type: "string" },
      status: { type: "string", enum: ["accepted", "running", "successful", "failed", "dismissed"] },
      message: { type: "string" },
      created: { type: "string", format: "date-time" },
      started: { type: "string", format: "date-time" },
      finished: { type: "string", format: "date-time" },
      updated: { type: "string", format: "date-time" },
      progress: { type: "integer", minimum: 0, maximum: 100 },
      links: { type: "array", items: ref("link") },
    },
  },
  jobList: {
    type: "object",
    required: ["jobs", "links"],
    properties: { jobs: { type: "array", items: ref("statusInfo") }, links: { type: "array", items: ref("link") } },
  },
  results: { type: "object", additionalProperties: true, description: "Each output by value ({value, mediaType[, encoding]}) or by reference ({href, type})." },
};

/** What any call with a key may answer besides its own responses. */
const KEYED_RESPONSES = {
  401: exception("Missing, unknown, revoked or expired key (`WWW-Authenticate` names the scheme)."),
  403: exception("The key may not run this process, or its consumer has no process here."),
  429: exception("Rate limit or quota reached; `Retry-After` says when to try again."),
};

/** `doc` with the responses every keyed operation may give added to each (its own first). */
function withKeyedResponses<T extends { paths: Record<string, Record<string, { security?: unknown; responses: object }>> }>(doc: T): T {
  for (const item of Object.values(doc.paths))
    for (const op of Object.values(item)) if (op.security) op.responses = { ...op.responses, ...KEYED_RESPONSES, ...op.responses };
  return doc;
}

/** The OpenAPI 3.0 document of the door at `base` (absolute). */
export function ogcOpenApi(base: string, environment: string) {
  const keyed = { security: [{ apiKey: [] }] };
  return withKeyedResponses({
    openapi: "3.0.3",
    info: {
      title: `OGC API - Processes of environment "${environment}"`,
      version: "1.0.0",
      description: "Every published Flow API of the environment as a process (OGC 18-062r2).",
    },
    servers: [{ url: base }],
    paths: {
      "/": {
        get: {
          summary: "Landing page",
          operationId: "getLandingPage",
          responses: { 200: ok("Links to the API definition, conformance, processes and jobs.", ref("landingPage")) },
        },
      },
      "/conformance": {
        get: {
          summary: "Conformance classes",
          operationId: "getConformanceClasses",
          responses: { 200: ok("The conformance classes implemented.", ref("confClasses")) },
        },
      },
      "/api": { get: { summary: "This API definition", operationId: "getAPI", responses: { 200: ok("OpenAPI 3.0 document.", { type: "object" }) } } },
      "/processes": {
        get: {
          ...keyed,
          summary: "The processes the key may run",
          operationId: "getProcesses",
          parameters: [
            query("limit", "At most this many processes (all when omitted); a `next` link when there are more.", {
              type: "integer",
              minimum: 1,
              maximum: 10000,
            }),
            query("cursor", "Where the page starts: taken from the previous page's `next` link.", { type: "string" }),
          ],
          responses: { 200: ok("Process list, by id.", ref("processList")), 422: exception("Invalid query parameters.") },
        },
      },
      "/processes/{processID}": {
        get: {
          ...keyed,
          summary: "Process description",
          operationId: "getProcessDescription",
          parameters: [processId],
          responses: { 200: ok("Process description.", ref("process")), 404: exception("No such process.") },
        },
      },
      "/processes/{processID}/execution": {
        post: {
          ...keyed,
          summary: "Execute a process",
          operationId: "execute",
          parameters: [
            processId,
            { name: "Prefer", in: "header", required: false, schema: { type: "string" }, description: "respond-async, or wait=<seconds> (RFC 7240)." },
          ],
          requestBody: { required: true, content: json(ref("execute")) },
          callbacks: {
            jobCompleted: callback("successUri", "results"),
            jobInProgress: callback("inProgressUri", "statusInfo"),
            jobFailed: callback("failedUri", "statusInfo"),
          },
          responses: {
            200: {
              description: `Synchronous execution: ${RESULTS_200}`,
              content: RESULTS_CONTENT,
            },
            204: RAW_204,
            201: ok(
              "Asynchronous execution (or a synchronous one that did not complete in time): the job's status; Location names the job.",
              ref("statusInfo"),
            ),
            404: exception("No such process."),
            422: exception("Invalid inputs."),
          },
        },
      },
      "/jobs": {
        get: {
          ...keyed,
          summary: "Your jobs",
          operationId: "getJobs",
          parameters: [
            query("limit", undefined, { type: "integer", minimum: 1, maximum: 100, default: 20 }),
            query("status", "Only jobs in these states (repeated, or comma-separated).", {
              type: "array",
              items: { type: "string", enum: ["accepted", "running", "successful", "failed", "dismissed"] },
            }),
            query("processID", "Only jobs of these processes (repeated, or comma-separated).", { type: "array", items: { type: "string" } }),
            query("cursor", "Where the page starts: taken from the previous page's `next` link.", { type: "string" }),
          ],
          responses: { 200: ok("Job list, newest first; a `next` link when there are more.", ref("jobList")), 422: exception("Invalid query parameters.") },
        },
      },
      "/jobs/{jobId}": {
        get: {
          ...keyed,
          summary: "Job status",
          operationId: "getStatus",
          parameters: [jobId],
          responses: { 200: ok("Status info.", ref("statusInfo")), 404: exception("No such job.") },
        },
        delete: {
          ...keyed,
          summary: "Dismiss (cancel) a job",
          operationId: "dismiss",
          parameters: [jobId],
          responses: { 200: ok("The dismissed job.", ref("statusInfo")), 404: exception("No such job."), 409: exception("The job already finished.") },
        },
      },
      "/jobs/{jobId}/results": {
        get: {
          ...keyed,
          summary: "Job results",
          operationId: "getResult",
          parameters: [jobId],
          responses: {
            200: { description: `The results as the execute request asked: ${RESULTS_200}`, content: RESULTS_CONTENT },
            204: RAW_204,
            404: exception("No such job, or result not ready."),
            409: exception("The job failed or was dismissed."),
          },
        },
      },
    },
    components: { schemas: SCHEMAS, securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "X-Api-Key" } } },
  });
}
