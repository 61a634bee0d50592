/**
 * Header fields of the IETF draft "RateLimit header fields for HTTP"
 * (draft-ietf-httpapi-ratelimit-headers, structured fields):
 *
 *   RateLimit-Policy: "per-key";q=<quota>;w=<window seconds>
 *   RateLimit:        "per-key";r=<remaining>;t=<seconds until the window resets>
 *
 * plus `Retry-After: <seconds>` (RFC 9110) on a 429. Pure functions, no I/O.
 */

/** Name of our one policy, as the draft's policy item. */
export const RATE_LIMIT_POLICY_NAME = "per-key";

export interface TRateLimitState {
  /** Requests allowed per window (the plan's `rateLimitPerMinute`). */
  limit: number;
  /** Window length, seconds. */
  windowSeconds: number;
  /** Requests counted in the current window, including this one. */
  used: number;
  /** Seconds until the current window ends (>= 1). */
  resetSeconds: number;
}

/** True when this request is within the quota. */
export function isAllowed(s: TRateLimitState): boolean {
  return s.used <= s.limit;
}

/** The header fields to send with every answer to an authenticated call. */
export function rateLimitHeaders(s: TRateLimitState): Record<string, string> {
  const remaining = Math.max(0, s.limit - s.used);
  const reset = Math.max(1, Math.ceil(s.resetSeconds));
  const headers: Record<string, string> = {
    "ratelimit-policy": `"${RATE_LIMIT_POLICY_NAME}";q=${s.limit};w=${s.windowSeconds}`,
    ratelimit: `"${RATE_LIMIT_POLICY_NAME}";r=${remaining};t=${reset}`,
  };
  if (!isAllowed(s)) headers["retry-after"] = String(reset);
  return headers;
}
