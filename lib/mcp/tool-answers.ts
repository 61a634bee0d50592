/**
 * What a tool call answers (MCP `CallToolResult`), for AI clients:
 *
 * - a run (`answerWithRun`): `structuredContent` is the HTTP API's run document plus `next`
 *   (the output schema is `ZToolRun`), the first text block a short summary (state, counts,
 *   what to call next), one `resource_link` per result file, and each result file of at most
 *   `INLINE_RESULT_MAX_BYTES` (16 KiB) in a text format (GeoJSON, CSV) inline as an embedded
 *   resource, so a small answer needs no second call;
 * - a result file (`answerWithFile`, `run_result`): the file inline up to
 *   `RUN_RESULT_INLINE_MAX_BYTES` (1 MiB; text formats as text, Parquet as base64 `blob`),
 *   always with its `resource_link`;
 * - every `resource_link` is a signed download link (lib/mcp/result-link.ts): it downloads
 *   that one file with no header, whether the client holds an API key or an OAuth token (a
 *   model's client fetches links without the MCP request's credential), until it expires
 *   (the text says when). An embedded resource is named by the file's plain address, which
 *   does not expire (it needs the API key in `X-Api-Key`);
 * - the readable layers (`answerWithLayers`, `list_layers`): a line per layer and the list as
 *   structured content (`ZToolLayerList`);
 * - an error (`toolError`): `isError: true` with one text block. Domain errors (AppError)
 *   keep their detail and list each faulty argument by JSON Pointer; anything else is logged
 *   and answered without internals. Tool errors are for the model to read and act on
 *   (MCP "Error handling": tool execution errors, not protocol errors).
 */
import "server-only";
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/server";
import { asAppError } from "@/lib/serving/key-call";
import { FORMAT_INFO, FORMATS, type TResultFormat } from "@/lib/formats/registry";
import { formatBytes } from "@/lib/layers/parse/limits";
import type { TRunDocument } from "@/lib/runs/run-document";
import { TOOL_WAIT_MAX_SECONDS, type TToolLayerList, type TToolResultFile, type TToolRun } from "@/lib/mcp/tool-definitions";

/** Result files up to this size (bytes) in a text format come inline with a finished run. */
export const INLINE_RESULT_MAX_BYTES = 16 * 1024;
/** `run_result` inlines a file up to this size (bytes); larger ones are answered with their link only. */
export const RUN_RESULT_INLINE_MAX_BYTES = 1024 * 1024;

const TEXT_FORMATS: ReadonlySet<string> = new Set(FORMATS.filter((f) => !f.binary).map((f) => f.name));

/** Reads several result files of the run at once (lib/runs/get-result-file.ts `getResultFileContents`). */
export type TLoadFiles = (wanted: { key: string; format: string }[]) => Promise<{ key: string; format: string; content: Uint8Array }[]>;

/**
 * What to call next: while the run is queued or running, run_status (and run_cancel); once it
 * completed, run_result for a file; undefined for a failed or cancelled run (nothing to call).
 */
export function nextStep(doc: TRunDocument): string | undefined {
  if (doc.state === "completed") {
    const keys = (doc.results ?? []).map((r) => r.key).join(", ");
    return (
      `Call run_result with run_id "${doc.run_id}" and a result key (${keys}) for one file: its content inline up to ${formatBytes(RUN_RESULT_INLINE_MAX_BYTES)} ` +
      `(format picks the other format of its kind) and a new download link.`
    );
  }
  if (doc.state !== "queued" && doc.state !== "running") return undefined;
  return (
    `The run continues on the server. Call run_status with run_id "${doc.run_id}" (optionally wait_seconds up to ${TOOL_WAIT_MAX_SECONDS}) until its state is completed, ` +
    `then run_result with the run_id and a result key for a file; run_cancel stops it.`
  );
}

/** The signed download link of one result file of the answered run, and when it expires (lib/mcp/result-link.ts). */
export type TResultLinkOf = (key: string, format: TResultFormat) => { url: string; expiresAt: Date };

/** What the model is told about a signed link. */
function linkSentence(expiresAt: Date): string {
  return `needs no API key or token and works until ${expiresAt.toISOString()}`;
}

/** One line per run: state, progress, results or error. */
export function runSummary(doc: TRunDocument): string {
  const head = `Run ${doc.run_id} of ${doc.api} is ${doc.state}`;
  switch (doc.state) {
    case "completed": {
      const seconds = doc.started_at && doc.finished_at ? ((Date.parse(doc.finished_at) - Date.parse(doc.started_at)) / 1000).toFixed(1) : null;
      const results = (doc.results ?? []).map(
        (r) =>
          `${r.key} (${r.kind}, ${r.kind === "layer" ? `${r.feature_count} feature${r.feature_count === 1 ? "" : "s"}` : `${r.row_count} row${r.row_count === 1 ? "" : "s"}`}, ${r.format}, ${formatBytes(r.size_bytes)})`,
      );
      return `${head}${seconds ? ` after ${seconds} s` : ""}. Results: ${results.join("; ")}.`;
    }
    case "failed":
      return `${head}: ${doc.error?.code ?? "error"}: ${doc.error?.message ?? ""}${doc.error?.step ? ` (step ${doc.error.step})` : ""}`;
    case "cancelled":
      return `${head}.`;
    default:
      return `${head} (step ${doc.progress.steps_done} of ${doc.progress.steps_total} done). ${nextStep(doc)}`;
  }
}

/**
 * Answers with a run document (see module doc). `baseUrl`: `scheme://host[:port]` of the
 * public address; `linkOf` signs a result file's download link; `loadFiles` reads small
 * results for inlining (null: none is read).
 */
export async function answerWithRun(doc: TRunDocument, baseUrl: string, linkOf: TResultLinkOf, loadFiles: TLoadFiles | null): Promise<CallToolResult> {
  const next = nextStep(doc);
  const structured: TToolRun = next ? { ...doc, next } : doc;
  const results = doc.results ?? [];
  const links = results.map((r) => linkOf(r.key, r.format));
  const summary = runSummary(doc) + (links[0] ? ` Each result's resource link downloads its file: it ${linkSentence(links[0].expiresAt)}.` : "");
  const content: ContentBlock[] = [{ type: "text", text: summary }];
  const small = results.filter((r) => TEXT_FORMATS.has(r.format) && r.size_bytes <= INLINE_RESULT_MAX_BYTES);
  // A file purged after its retention is still listed (as over HTTP); it is just not inlined.
  const files = loadFiles && small.length ? await loadFiles(small.map((r) => ({ key: r.key, format: r.format }))) : [];
  results.forEach((r, i) => {
    const name = `${r.key}.${FORMAT_INFO[r.format].extension}`;
    content.push({ type: "resource_link", uri: links[i]!.url, name, title: `${r.key} (${r.kind}, ${r.format})`, mimeType: r.media_type, size: r.size_bytes });
    const file = files.find((f) => f.key === r.key && f.format === r.format);
    if (file) content.push({ type: "resource", resource: { uri: baseUrl + r.href, mimeType: r.media_type, text: new TextDecoder().decode(file.content) } });
  });
  return { content, structuredContent: structured as unknown as Record<string, unknown> };
}

/**
 * Answers `run_result` with one file (see module doc): `href` is its plain address (path),
 * `link` its signed download link.
 */
export function answerWithFile(
  file: { runId: string; key: string; format: TResultFormat; mediaType: string; sizeBytes: number; content: Uint8Array | null; href: string },
  baseUrl: string,
  link: { url: string; expiresAt: Date },
): CallToolResult {
  const uri = `${baseUrl}${file.href}?format=${file.format}`;
  const size = file.sizeBytes;
  const inline = size <= RUN_RESULT_INLINE_MAX_BYTES && file.content !== null;
  const name = `${file.key}.${FORMAT_INFO[file.format].extension}`;
  const structured: TToolResultFile = {
    run_id: file.runId,
    key: file.key,
    format: file.format,
    media_type: file.mediaType,
    size_bytes: size,
    url: link.url,
    url_expires_at: link.expiresAt.toISOString(),
    inline,
  };
  const download = `The download link ${link.url} ${linkSentence(link.expiresAt)} (call run_result again for a new one).`;
  const content: ContentBlock[] = [
    {
      type: "text",
      text: inline
        ? `Result "${file.key}" of run ${file.runId} as ${file.format} (${formatBytes(size)}). ${download}`
        : `Result "${file.key}" of run ${file.runId} as ${file.format} is ${formatBytes(size)}, more than the ${formatBytes(RUN_RESULT_INLINE_MAX_BYTES)} answered inline: download it. ${download}`,
    },
    { type: "resource_link", uri: link.url, name, mimeType: file.mediaType, size },
  ];
  if (inline) {
    content.push({
      type: "resource",
      resource: TEXT_FORMATS.has(file.format)
        ? { uri, mimeType: file.mediaType, text: new TextDecoder().decode(file.content!) }
        : { uri, mimeType: file.mediaType, blob: Buffer.from(file.content!).toString("base64") },
    });
  }
  return { content, structuredContent: structured as unknown as Record<string, unknown> };
}

/** Answers `list_layers`: one line per layer (id, kind, geometry, items, the arguments it fits) and the list as structured content. */
export function answerWithLayers(list: TToolLayerList, environment: string): CallToolResult {
  const lines = list.layers.map((l) => {
    const what = l.kind === "table" ? `table, ${l.item_count} rows` : `${l.geometry_types.join("/") || "geometry not recorded"}, ${l.item_count} features`;
    return `- ${l.id} (${l.name}; ${what})${l.fits.length ? `: fits ${l.fits.join(", ")}` : ""}`;
  });
  const text = list.layers.length
    ? `Layers environment "${environment}" may read; pass one as {"layer_id": "<id>"} to an argument it fits:\n${lines.join("\n")}`
    : `Environment "${environment}" may read no layers yet: pass your own data ({"geojson"}, {"rows"} or {"area"}). An admin can make layers readable in the console.`;
  return { content: [{ type: "text", text }], structuredContent: list as unknown as Record<string, unknown> };
}

/** A tool error from anything thrown while serving a call (see module doc). */
export function toolError(err: unknown): CallToolResult {
  const known = asAppError(err, "in an MCP tool call");
  let text = known.detail;
  for (const e of known.errors ?? []) text += `\n- ${e.field || "/"}: ${e.message} (${e.code})`;
  if (known.retryAfterSeconds !== undefined) text += `\nRetry after ${Math.max(1, Math.ceil(known.retryAfterSeconds))} s.`;
  return { isError: true, content: [{ type: "text", text }] };
}
