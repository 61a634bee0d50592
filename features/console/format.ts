/** Display helpers of the console (plain functions, server and client alike; times in UTC). */

export function formatTime(value: string | Date | null | undefined): string {
  if (!value) return "—";
  const d = typeof value === "string" ? new Date(value) : value;
  return d.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

/** Milliseconds as `850 ms`, `12.3 s`, `4 min 5 s`, `2 h 3 min`. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
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
