/**
 * The `Prefer` request header field (RFC 7240) as the run-starting doors read it:
 * `respond-async` (answer at once with the run's address) and `wait=<seconds>` (wait that long
 * for a final state). Unknown preferences are ignored, as the RFC asks. The answer names the
 * preferences it honoured in `Preference-Applied`.
 */

interface TPreferences {
  respondAsync: boolean;
  /** Seconds from `wait=`, when given as a non-negative integer. */
  wait: number | null;
}

/** Parses every `Prefer` field value of `header` (comma-separated preferences, `;` parameters ignored). */
export function parsePrefer(header: string | null): TPreferences {
  const out: TPreferences = { respondAsync: false, wait: null };
  if (!header) return out;
  for (const part of header.split(",")) {
    const [token = ""] = part.split(";");
    const [rawName = "", rawValue] = token.split("=");
    const name = rawName.trim().toLowerCase();
    const value = rawValue?.trim().replace(/^"(.*)"$/, "$1");
    if (name === "respond-async") out.respondAsync = true;
    if (name === "wait" && value !== undefined && /^\d{1,6}$/.test(value)) out.wait = Number(value);
  }
  return out;
}

/**
 * The seconds to wait for a run and the `Preference-Applied` value, for a request that may also
 * carry `wait_seconds` in its body (which wins). `respond-async` means no wait; `wait=` is capped at `max`.
 */
export function applyPrefer(prefs: TPreferences, bodyWait: number | null, max: number): { waitSeconds: number | null; applied: string | null } {
  if (bodyWait !== null) return { waitSeconds: bodyWait, applied: null };
  if (prefs.respondAsync) return { waitSeconds: 0, applied: "respond-async" };
  if (prefs.wait !== null) {
    const wait = Math.min(prefs.wait, max);
    return { waitSeconds: wait, applied: `wait=${wait}` };
  }
  return { waitSeconds: null, applied: null };
}
