/**
 * Validates a POST /runs body against the published flow version (the schema is derived
 * from the flow by lib/flows/run-request.ts) and computes the request fingerprint used for
 * Idempotency-Key comparison. Any fault: ApiError 422 listing every faulty field by JSON
 * Pointer; nothing is started or counted.
 */
import { ApiError } from "@/lib/api/errors";
import type { TFlowVersion } from "@/lib/flows/definition";
import { parseRunRequest, type TRunRequest } from "@/lib/flows/run-request";
import { fingerprint } from "@/lib/runs/canonical-json";

export interface TValidRunRequest {
  /** The validated body (parameters with defaults applied, omitted optional inputs null). */
  body: TRunRequest;
  parameters: Record<string, unknown>;
  waitSeconds: number | null;
  /** SHA-256 of the canonical JSON of the body as sent. */
  fingerprint: string;
}

export function validateRunRequest(flow: TFlowVersion, raw: unknown): TValidRunRequest {
  const parsed = parseRunRequest(flow, raw);
  if (!parsed.ok) {
    const n = parsed.errors.length;
    throw new ApiError("validation_failed", `The request has ${n} invalid field${n === 1 ? "" : "s"}; see errors.`, { errors: parsed.errors });
  }
  return {
    body: parsed.request,
    parameters: parsed.request.parameters,
    waitSeconds: parsed.request.wait_seconds ?? null,
    fingerprint: fingerprint(raw),
  };
}
