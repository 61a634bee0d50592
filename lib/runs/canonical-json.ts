/**
 * Canonical JSON (object keys sorted recursively, no whitespace) and its SHA-256, used as
 * the request fingerprint for Idempotency-Key comparison: two bodies that differ only in
 * key order or spacing are the same request, and so are two run requests that differ only in
 * `wait_seconds` (`runRequestFingerprint`).
 */
import { createHash } from "node:crypto";

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

export function fingerprint(value: unknown): string {
  return createHash("sha256").update(canonicalJson(value)).digest("hex");
}

/**
 * Fingerprint of a run request body (POST /runs) for Idempotency-Key comparison: `fingerprint`
 * of the body without its top-level `wait_seconds`. Waiting only decides how long this call
 * waits for the run before answering, not what the run does, so a repeat that waits longer
 * (or not at all) is the same request: it gets the same run, waiting as it asks.
 */
export function runRequestFingerprint(body: unknown): string {
  const isObject = body !== null && typeof body === "object" && !Array.isArray(body);
  // canonicalJson leaves out members that are undefined
  return fingerprint(isObject ? { ...body, wait_seconds: undefined } : body);
}
