/**
 * The whole check of a run request before a run is created, for every door (HTTP `POST /runs`,
 * the OGC execute request, an MCP tool call, Try it, a designer's preview): its form against
 * the flow version (the schema derived from the flow by lib/flows/run-request.ts), and against
 * the database and the outbound rules:
 * - each `{"layer_id"}` input must name a layer the caller may read that fits the input (for a
 *   key, one its environment may read of the API's workspace; for a designer, one of the
 *   workspace: ids are unique within a workspace only, and resolve in the API's), its kind and
 *   geometry types as the input declares (lib/flows/input-geometry.ts); a layer that may not be
 *   read gets the same answer as a missing one, listing the readable ids that would fit;
 * - each `{"href"}` input's URL must be one the service may fetch (lib/net/outbound-fetch.ts
 *   `checkOutboundUrl`: https, or http and private addresses only for a host on the environment's
 *   allow-list; nothing is fetched here: the worker fetches when the run starts, lib/runs/href-input.ts);
 * - each `subscriber` URI one it may call (lib/runs/check-subscriber.ts).
 *
 * All faults are listed at once (README "Errors"): the parts of a request whose form is fine
 * are checked against the database even when other parts are not, so a caller learns of an
 * unreadable layer and a self-intersecting area in one answer. Only `checkRunRequest` makes the
 * `TCheckedRunRequest` that `createRun` takes.
 */
import "server-only";
import { validationError, type TFieldError } from "@/lib/errors";
import { layerInputFaults } from "@/lib/flows/input-geometry";
import { isHrefValue, parseRunRequest, type THrefValue, type TRunRequest } from "@/lib/flows/run-request";
import { readableLayersOf } from "@/lib/layers/list-layers";
import { outboundUrlFaults } from "@/lib/net/outbound-fetch";
import { readOutboundHosts } from "@/lib/net/outbound-hosts";
import { subscriberFaults } from "@/lib/runs/check-subscriber";
import type { TPreviewTarget, TRunScope, TRunTarget } from "@/lib/runs/scope";
import { runRequestFingerprint } from "@/lib/runs/canonical-json";

declare const CHECKED: unique symbol;
/** A run request checked by `checkRunRequest` for one caller and target. */
export interface TCheckedRunRequest {
  /** The validated body (parameters with defaults applied, omitted optional inputs null). */
  body: TRunRequest;
  parameters: Record<string, unknown>;
  waitSeconds: number | null;
  /** SHA-256 of the canonical JSON of the body as sent, without `wait_seconds` (lib/runs/canonical-json.ts): what an Idempotency-Key is compared by. */
  fingerprint: string;
  readonly [CHECKED]: true;
}

export interface TCheckOptions {
  /** Faults the door found itself (MCP: unknown arguments), already named as the caller sent them; listed first. */
  prior?: TFieldError[];
  /** How the door names a field of the run request body (OGC: `/parameters/x` is `/inputs/x`; MCP: `/inputs/cities` is `/cities`). */
  pointer?: (field: string) => string;
  /** The answer's detail for `n` faults when they are not all of one check of the database or the outbound rules (default: a count). */
  detail?: (n: number) => string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The layer inputs' faults (see module doc); none without `{"layer_id"}` inputs. */
async function layerFaults(scope: TRunScope, target: TRunTarget | TPreviewTarget, inputs: Record<string, unknown>): Promise<TFieldError[]> {
  const wanted = Object.entries(inputs).flatMap(([name, v]) => (isObject(v) && typeof v.layer_id === "string" ? [{ name, layerId: v.layer_id }] : []));
  if (wanted.length === 0) return [];
  const readableScope = scope.kind === "key" ? { environmentId: scope.environmentId, workspaceId: target.workspaceId } : { workspaceId: target.workspaceId };
  const named = await readableLayersOf(
    readableScope,
    wanted.map((w) => w.layerId),
  );
  // Only an unreadable id needs the whole list (for the ids the answer suggests).
  const readable = wanted.every((w) => named.some((l) => l.id === w.layerId)) ? named : await readableLayersOf(readableScope);
  return layerInputFaults(target.flow.inputs, wanted, readable, scope.kind === "key" ? "in this environment" : "in this workspace");
}

/**
 * Checks `raw` (a run request body) for `scope` calling `target` (see module doc).
 *
 * @returns the validated request, for `createRun`.
 * @throws AppError `validation_failed` listing every fault by JSON Pointer (as `opts.pointer`
 *   names it), `opts.prior` first; nothing is started or counted.
 */
export async function checkRunRequest(
  scope: TRunScope,
  target: TRunTarget | TPreviewTarget,
  raw: unknown,
  opts: TCheckOptions = {},
): Promise<TCheckedRunRequest> {
  const parsed = parseRunRequest(target.flow, raw);
  const formErrors = parsed.ok ? [] : parsed.errors;
  // A part of the body with a fault of its form (or under a faulty parent) is not checked further.
  const faulted = (field: string) => formErrors.some((e) => e.field === field || e.field.startsWith(`${field}/`) || field.startsWith(`${e.field}/`));
  const body = isObject(raw) ? raw : {};
  const rawInputs = parsed.ok ? parsed.request.inputs : isObject(body.inputs) ? body.inputs : {};
  const inputs = Object.fromEntries(
    Object.entries(rawInputs).filter(([name]) => target.flow.inputs.some((i) => i.name === name) && !faulted(`/inputs/${name}`)),
  );
  const rawSubscriber = parsed.ok ? parsed.request.subscriber : isObject(body.subscriber) ? body.subscriber : undefined;
  // Callbacks are for key callers only (createRun refuses them for others).
  const uris =
    scope.kind === "key" && rawSubscriber
      ? Object.entries(rawSubscriber).filter((e): e is [string, string] => typeof e[1] === "string" && !faulted(`/subscriber/${e[0]}`))
      : [];
  const hrefs = Object.entries(inputs).filter((e): e is [string, THrefValue] => isHrefValue(e[1]));

  const allowHosts = scope.kind === "key" && (uris.length > 0 || hrefs.length > 0) ? await readOutboundHosts(scope.environmentId) : [];
  const found: { errors: TFieldError[]; detail: string }[] = [
    { errors: subscriberFaults(Object.fromEntries(uris), allowHosts), detail: "The subscriber's callback URIs cannot be used." },
    { errors: await layerFaults(scope, target, inputs), detail: "Some inputs refer to layers that cannot be used." },
    {
      errors: outboundUrlFaults(
        hrefs.map(([name, v]) => [`/inputs/${name}/href`, v.href] as const),
        allowHosts,
      ),
      detail: "Some inputs refer to URLs the service may not fetch.",
    },
  ].filter((f) => f.errors.length > 0);

  const pointer = opts.pointer ?? ((field: string) => field);
  const prior = opts.prior ?? [];
  const errors = [...prior, ...[...formErrors, ...found.flatMap((f) => f.errors)].map((e) => ({ ...e, field: pointer(e.field) }))];
  if (errors.length > 0) {
    const only = prior.length === 0 && formErrors.length === 0 && found.length === 1 ? found[0]!.detail : undefined;
    throw validationError(errors, only ?? opts.detail?.(errors.length));
  }
  if (!parsed.ok) throw new Error("unreachable: a request with faults of its form has errors");
  const request = parsed.request;
  return {
    body: request,
    parameters: request.parameters,
    waitSeconds: request.wait_seconds ?? null,
    fingerprint: runRequestFingerprint(raw),
  } as TCheckedRunRequest;
}
