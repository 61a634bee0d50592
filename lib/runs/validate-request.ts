/**
 * Validates a run request (the body of POST /runs, an MCP tool call's arguments, a Try-it form) against the published flow version (the schema is derived
 * from the flow by lib/flows/run-request.ts) and computes the request fingerprint used for
 * Idempotency-Key comparison. Any fault: AppError `validation_failed` listing every faulty field by JSON
 * Pointer; nothing is started or counted.
 */
import { validationError } from "@/lib/errors";
import type { TFlowVersion } from "@/lib/flows/definition";
import { parseRunRequest, type TRunRequest } from "@/lib/flows/run-request";
import { runRequestFingerprint } from "@/lib/runs/canonical-json";

export interface TValidRunRequest {
  /** The validated body (parameters with defaults applied, omitted optional inputs null). */
  body: TRunRequest;
  parameters: Record<string, unknown>;
  waitSeconds: number | null;
  /** SHA-256 of the canonical JSON of the body as sent, without `wait_seconds` (lib/runs/canonical-json.ts). */
  fingerprint: string;
}

export function validateRunRequest(flow: TFlowVersion, raw: unknown): TValidRunRequest {
  const parsed = parseRunRequest(flow, raw);
  if (!parsed.ok) {
    throw validationError(parsed.errors);
  }
  return {
    body: parsed.request,
    parameters: parsed.request.parameters,
    waitSeconds: parsed.request.wait_seconds ?? null,
    fingerprint: runRequestFingerprint(raw),
  };
}
