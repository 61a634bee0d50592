/** Display helpers of the console (plain functions, server and client alike; times in UTC). */

export function formatTime(value: string | Date | null | undefined): string {
  if (!value) return "—";
  const d = typeof value === "string" ? new Date(value) : value;
  return d.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

/**
 * Milliseconds as `850 ms`, `12.3 s`, `4 min 5 s`, `2 h 3 min`. The value is rounded to the
 * smallest unit shown before it is split, so a carry moves up (179.6 s is `3 min 0 s`, never
 * `2 min 60 s`) and a value that rounds up to the next range is shown in it (59.96 s is `1 min 0 s`).
 */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.round(ms / 60_000);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export const REFUSAL_REASONS: Record<number, string> = {
  401: "Missing or invalid key",
  403: "No grant, or plan without AI access",
  404: "No such API or run",
  413: "Request body too large",
  415: "Not JSON",
  422: "Invalid request",
  429: "Rate limited",
};
