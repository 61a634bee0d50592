/**
 * The MCP server of one request (the transport is stateless: `createMcpHandler` builds one
 * per HTTP request from this factory, for the 2026-07-28 revision and for 2025-era clients
 * alike). Its tools are those of the calling key (lib/serving/resolve-ai-caller.ts): one per
 * Flow API, built by lib/mcp/tool-definitions.ts, plus `run_status`, `run_result`,
 * `run_cancel` and `list_layers`. The layers the key's environment may read are read for each
 * request: each Flow API tool's description and `layer_id` examples name those that fit its
 * inputs, the server instructions name them all, and `list_layers` lists them with the
 * arguments each fits. `list_layers` is housekeeping like `tools/list` (design.md "MCP"): it
 * spends no quota and meters nothing.
 *
 * Every call of a Flow API tool or a run tool is a key call like an HTTP request, under the
 * same policy (lib/serving/key-call.ts; the quota is shared with HTTP calls): charged to the
 * API it names (a run tool: its run's), or, when a run tool names no run of the key or its
 * arguments are invalid, to the key's first tool (`TCharge`), so a failing call spends quota
 * too. It goes through the same domain functions as the HTTP door (`checkRunRequest`,
 * `createRun`, `getRunOrThrow`, `getResultFile`, `cancelRun`). `initialize`, `tools/list` and
 * `ping` neither spend nor meter anything. Errors become tool errors
 * (lib/mcp/tool-answers.ts): invalid arguments name each argument and start nothing; a run of
 * another consumer, of an API that is not a tool of this key, or an unknown one is "No such
 * run". Result files are linked by signed download links (lib/mcp/result-link.ts), made only
 * for a run just loaded for the calling key's consumer.
 *
 * Waiting: a Flow API tool waits up to `wait_seconds` (default 20, at most 55), woken by the
 * run's final notification; with a progress token it sends `notifications/progress` (steps
 * done of total). A client that drops the request stops the wait, never the run.
 */
import "server-only";
import type { z } from "zod";
import { McpServer, type CallToolResult, type ServerContext, type StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import { env } from "@/lib/env";
import { AppError, assertStorable } from "@/lib/errors";
import { cancelRun } from "@/lib/runs/cancel-run";
import { createRun } from "@/lib/runs/create-run";
import { checkRunRequest } from "@/lib/runs/check-run-request";
import { findRunApiId } from "@/lib/runs/find-run-api";
import { getResultFile, getResultFileContents } from "@/lib/runs/get-result-file";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";
import { runDocument } from "@/lib/runs/run-document";
import { apiBasePath } from "@/lib/runs/scope";
import { waitForRun, type TRunProgress } from "@/lib/runs/wait-for-run";
import type { TAiApi, TAiCaller } from "@/lib/serving/resolve-ai-caller";
import { withKeyCall } from "@/lib/serving/key-call";
import type { TResultFormat } from "@/lib/formats/registry";
import {
  answerWithFile,
  answerWithLayers,
  answerWithRun,
  toolError,
  RUN_RESULT_INLINE_MAX_BYTES,
  type TLoadFiles,
  type TResultLinkOf,
} from "@/lib/mcp/tool-answers";
import { signResultLink } from "@/lib/mcp/result-link";
import { listLayerIds } from "@/lib/flows/input-geometry";
import { readableLayersOf } from "@/lib/layers/list-layers";
import {
  jsonSchemaOf,
  parseToolArguments,
  TOOL_LAYER_LIST_OUTPUT,
  TOOL_RESULT_FILE_OUTPUT,
  TOOL_RUN_OUTPUT,
  argumentPointer,
  toolRunBody,
  argumentFaultsDetail,
  toolLayerList,
  toolDescription,
  toolInputSchema,
  toolName,
  ZListLayersArgs,
  ZRunCancelArgs,
  ZRunResultArgs,
  ZRunStatusArgs,
} from "@/lib/mcp/tool-definitions";

/** What the route hands the factory for one request. */
export interface TMcpRequestContext {
  caller: TAiCaller;
  /** `scheme://host[:port]` of the public address, for absolute download URLs. */
  baseUrl: string;
}

export const MCP_SERVER_NAME = "flow-api";
export const MCP_SERVER_VERSION = "0.1.0";
/** How long a client may reuse a `tools/list` answer (2026-07-28 `ttlMs`); private: it is per key. */
export const TOOLS_LIST_TTL_MS = 60_000;

type TArgs = Record<string, unknown>;
type TToolFn = (api: TAiApi, args: TArgs, ctx: ServerContext) => Promise<CallToolResult>;

/**
 * A JSON Schema as the SDK's Standard Schema: advertised as is in `tools/list`, validated by
 * the domain in the handler (so errors name the argument our way, and nothing is validated
 * twice with different rules).
 */
function advertised(schema: Record<string, unknown>): StandardSchemaWithJSON<TArgs, TArgs> {
  return {
    "~standard": {
      version: 1,
      vendor: "flow-api",
      validate: (value: unknown) => ({ value: (value ?? {}) as TArgs }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

/** The tool (API) a run of this key belongs to; "No such run" (AppError `not_found`) for any other run_id. */
async function runApi(caller: TAiCaller, runId: string): Promise<TAiApi> {
  const flowApiId = await findRunApiId(caller.consumerId, caller.environmentId, runId);
  const api = flowApiId ? caller.apis.find((a) => a.target.flowApiId === flowApiId) : undefined;
  if (!api) throw new AppError("not_found", "No such run: no run with this run_id belongs to your API key's tools in this environment.");
  return api;
}

/**
 * `assertStorable` (lib/errors/unstorable.ts) for tool arguments, its refusal worded for the
 * model: the HTTP door's detail points at the problem's `errors` list, which a tool error does
 * not have, so the text names the argument itself (its JSON Pointer).
 */
function assertStorableArguments(args: TArgs): void {
  try {
    assertStorable(args);
  } catch (err) {
    if (!(err instanceof AppError) || !err.errors?.length) throw err;
    const fields = err.errors.map((e) => e.field || "/").join(", ");
    throw new AppError(err.code, `Argument ${fields} holds text that cannot be stored; nothing was done.`, { errors: err.errors });
  }
}

/**
 * What a tool call is charged to: the key's per-minute quota of `api`'s workspace
 * (lib/serving/key-call.ts). `fault`: the call is already known to fail (its arguments, or a
 * run_id of no run of the key); it is answered once the quota is spent, so such a call counts
 * like any other (README "Metering and limits": every tool call spends one call).
 */
interface TCharge {
  api: TAiApi;
  fault?: AppError;
}

/** Waits for the run up to `seconds` (see module doc): a dropped request stops the wait; a progress token gets `notifications/progress`. */
function waitForToolRun(ctx: ServerContext, runId: string, seconds: number) {
  const token = ctx.mcpReq._meta?.progressToken;
  const onProgress = async (p: TRunProgress) => {
    await ctx.mcpReq
      .notify({
        method: "notifications/progress",
        params: { progressToken: token!, progress: p.stepsDone, total: p.stepsTotal, message: `${p.state}: ${p.stepsDone} of ${p.stepsTotal} steps done` },
      })
      .catch(() => {}); // the client may have gone; the run goes on
  };
  return waitForRun(runId, seconds * 1000, { signal: ctx.mcpReq.signal, onProgress: token === undefined ? undefined : onProgress });
}

async function runAnswer(ctx: TMcpRequestContext, api: TAiApi, run: Parameters<typeof runDocument>[0] & { flowVersion?: { version: number } | null }) {
  const doc = runDocument(run, { base: apiBasePath(api.path), api: api.path.api }, run.flowVersion?.version ?? api.target.flowVersionNumber);
  // `run` was loaded for this key's scope (createRun, getRunOrThrow, cancelRun), so its files
  // are too, and a link to them is given to the consumer who may download them.
  const load: TLoadFiles = (wanted) => getResultFileContents(doc.run_id, wanted);
  const linkOf: TResultLinkOf = (key, format) => signResultLink(ctx.baseUrl, { path: api.path, runId: doc.run_id, key, format });
  return answerWithRun(doc, ctx.baseUrl, linkOf, doc.state === "completed" ? load : null);
}

/** Builds the per-request server (see module doc). `listChanged` is declared where it can be delivered. */
export async function buildMcpServer(ctx: TMcpRequestContext, era: "legacy" | "modern"): Promise<McpServer> {
  const { caller } = ctx;
  // Read per request, not cached with the key: an admin's grant of a layer shows at once.
  // Of every workspace whose APIs the key may call; each tool names those of its API's workspace
  // (where a run's layer_id resolves).
  const readable = await readableLayersOf({ environmentId: caller.environmentId });
  const readableFor = (api: TAiApi) => readable.filter((l) => l.workspaceId === api.target.workspaceId);
  /**
   * A tool whose call is a key call (lib/serving/key-call.ts) charged to what `charge` returns
   * (see `TCharge`), logged under `tool` until that is known ("" for the run tools). A known
   * fault is answered after the quota is spent; anything thrown becomes a tool error.
   */
  const keyTool =
    (tool: string, charge: (args: TArgs) => Promise<TCharge>, fn: TToolFn, opts: { requiresWorker?: boolean; metered?: "call" } = {}) =>
    async (raw: TArgs, reqCtx: ServerContext): Promise<CallToolResult> => {
      const args = raw ?? {};
      const at = { organization: caller.organization, environment: caller.environment, api: tool, consumerId: caller.consumerId };
      const resolve = async () => {
        const { api, fault } = await charge(args);
        // The key was resolved for this request, its auth version checked (lib/serving/resolve-ai-caller.ts).
        return { value: { ...api, keyId: caller.keyId, fault }, fresh: true, authVersion: 0n };
      };
      return withKeyCall({ door: "mcp", at, resolve, ...opts }, (callee) => (callee.fault ? Promise.reject(callee.fault) : fn(callee, args, reqCtx))).catch(
        toolError,
      );
    };
  /**
   * A Flow API tool's charge: its API, with the fault of arguments Postgres could not store
   * (lib/errors/unstorable.ts: NUL or unpaired surrogates, nesting over `MAX_JSON_DEPTH`); the
   * other argument faults are found by the call itself.
   */
  const apiCharge = (api: TAiApi) => async (args: TArgs) => {
    try {
      assertStorableArguments(args);
      return { api };
    } catch (err) {
      if (err instanceof AppError) return { api, fault: err };
      throw err;
    }
  };
  /**
   * A run tool's charge: the API of its run, its arguments parsed by `schema` first. Faulty
   * arguments, or a run_id of no run of the key, name no API: such a call is charged to the
   * workspace of the key's first tool (the tools of most keys are all of one workspace), and
   * logged under no API. A key with no tool has no run and no quota to spend: "No such run".
   */
  const runTool = <S extends z.ZodType<{ run_id: string }>>(schema: S, fn: (api: TAiApi, args: z.output<S>, ctx: ServerContext) => Promise<CallToolResult>) =>
    keyTool(
      "",
      async (args) => {
        let fault: AppError;
        try {
          assertStorableArguments(args);
          return { api: await runApi(caller, parseToolArguments(schema, args).run_id) };
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          fault = err;
        }
        const first = caller.apis[0];
        if (!first) throw fault;
        return { api: { ...first, path: { ...first.path, api: "" } }, fault };
      },
      (api, args, reqCtx) => fn(api, schema.parse(args), reqCtx),
    );
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: `Flow APIs of ${caller.organization}/${caller.environment}`, version: MCP_SERVER_VERSION },
    {
      // 2026-07-28 clients hold a `subscriptions/listen` stream on which tool-list changes
      // arrive (lib/mcp/list-changed.ts); stateless 2025-era serving has no stream to send them on.
      capabilities: { tools: { listChanged: era === "modern" } },
      cacheHints: { "tools/list": { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: "private" } },
      instructions:
        `Each tool runs one published geospatial Flow API of environment "${caller.environment}" and answers with its results. ` +
        'Pass inputs as {"layer_id"}, {"geojson"}, {"rows"} or {"area"} objects as each tool\'s schema says. ' +
        "A run that takes longer than wait_seconds answers with a run_id: use run_status, run_result and run_cancel with it. " +
        `Call list_layers for the layer ids this environment may read and the arguments each fits${readable.length ? ` (now ${listLayerIds([...new Map(readable.map((l) => [l.id, l])).values()])})` : " (none yet)"}.`,
    },
  );
  const retention = env().RESULT_RETENTION_HOURS;

  for (const api of caller.apis) {
    server.registerTool(
      toolName(api.path.api),
      {
        title: api.name,
        description: toolDescription(
          { name: api.name, description: api.description, flowName: api.flowName, flow: api.target.flow },
          retention,
          readableFor(api),
        ),
        inputSchema: advertised(toolInputSchema(api.target.flow, readableFor(api))),
        outputSchema: advertised(TOOL_RUN_OUTPUT),
        annotations: { title: api.name, readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      },
      keyTool(
        api.path.api,
        apiCharge(api),
        async (api, args, reqCtx) => {
          const { body, errors, waitSeconds } = toolRunBody(api.target.flow, args);
          // every fault at once, named as the arguments (e.g. a layer_id this environment may not read beside a faulty area)
          const request = await checkRunRequest(api.scope, api.target, body, { prior: errors, pointer: argumentPointer, detail: argumentFaultsDetail });
          // createRun meters the ETL run and the API request
          const { runId } = await createRun(api.scope, api.target, request);
          return runAnswer(ctx, api, await waitForToolRun(reqCtx, runId, waitSeconds));
        },
        { requiresWorker: true, metered: "call" },
      ),
    );
  }

  server.registerTool(
    "run_status",
    {
      title: "Run status",
      description:
        "The state of a run a Flow API tool started (queued, running, completed, failed or cancelled), with its results once completed. " +
        "wait_seconds (default 0) waits for it to finish first.",
      inputSchema: advertised(jsonSchemaOf(ZRunStatusArgs, "input")),
      outputSchema: advertised(TOOL_RUN_OUTPUT),
      annotations: { title: "Run status", readOnlyHint: true, openWorldHint: false },
    },
    runTool(ZRunStatusArgs, async (api, args, reqCtx) => {
      const run = await getRunOrThrow(api.scope, args.run_id);
      return runAnswer(ctx, api, args.wait_seconds > 0 ? await waitForToolRun(reqCtx, run.id, args.wait_seconds) : run);
    }),
  );

  server.registerTool(
    "run_result",
    {
      title: "Run result",
      description:
        "One result file of a completed run: its content (up to 1 MiB; GeoJSON and CSV as text, Parquet as base64) and its download link. " +
        "format picks the other format of the result's kind (geojson or geoparquet for layers, csv or parquet for tables).",
      inputSchema: advertised(jsonSchemaOf(ZRunResultArgs, "input")),
      outputSchema: advertised(TOOL_RESULT_FILE_OUTPUT),
      annotations: { title: "Run result", readOnlyHint: true, openWorldHint: false },
    },
    runTool(ZRunResultArgs, async (api, { run_id: runId, key, format: asked }) => {
      const file = await getResultFile(api.scope, runId, key, asked ?? null);
      const { format, sizeBytes } = file.file;
      // Only a file small enough to be answered inline is read.
      const content = sizeBytes <= RUN_RESULT_INLINE_MAX_BYTES ? await file.bytes() : null;
      const href = `${apiBasePath(api.path)}/runs/${runId}/results/${encodeURIComponent(key)}`;
      // getResultFile loaded the run for this key's scope: the link goes to its own consumer.
      const link = signResultLink(ctx.baseUrl, { path: api.path, runId, key, format });
      return answerWithFile({ runId, key, format: format as TResultFormat, mediaType: file.mediaType, sizeBytes, content, href }, ctx.baseUrl, link);
    }),
  );

  server.registerTool(
    "run_cancel",
    {
      title: "Cancel a run",
      description: "Cancels a run that is queued or running; its work stops. A run that already finished cannot be cancelled.",
      inputSchema: advertised(jsonSchemaOf(ZRunCancelArgs, "input")),
      outputSchema: advertised(TOOL_RUN_OUTPUT),
      annotations: { title: "Cancel a run", readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    runTool(ZRunCancelArgs, async (api, args) => runAnswer(ctx, api, await cancelRun(api.scope, args.run_id))),
  );

  server.registerTool(
    "list_layers",
    {
      title: "Readable layers",
      description:
        `The layers environment "${caller.environment}" may read, for inputs given as {"layer_id": "<id>"}: id, name, kind (features or table), ` +
        "geometry types, item count, and the tool arguments each fits (by kind and the geometry the input declares). Reads nothing else and counts nothing.",
      inputSchema: advertised(jsonSchemaOf(ZListLayersArgs, "input")),
      outputSchema: advertised(TOOL_LAYER_LIST_OUTPUT),
      annotations: { title: "Readable layers", readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    // Housekeeping, like tools/list (whose descriptions say the same): no quota, no metering.
    // Its schema takes no arguments; one sent is refused as run_status refuses it (named).
    async (args: TArgs) => {
      try {
        parseToolArguments(ZListLayersArgs, args ?? {});
      } catch (err) {
        return toolError(err);
      }
      return answerWithLayers(
        toolLayerList(
          readable,
          caller.apis.map((a) => ({ name: toolName(a.path.api), flow: a.target.flow, workspaceId: a.target.workspaceId })),
        ),
        caller.environment,
      );
    },
  );

  return server;
}
