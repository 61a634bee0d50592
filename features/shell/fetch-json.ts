/**
 * The fetch of every `queryOptions` factory and of the client components that call a route
 * handler directly: same-origin JSON route handlers, RFC 9457 problems as errors.
 */

/** GET a JSON route handler; a problem answer becomes an Error "<status> <detail>". */
export async function fetchJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: "application/json" } });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { detail?: string } | null;
    throw new Error(`${res.status} ${body?.detail ?? res.statusText}`);
  }
  return (await res.json()) as T;
}

/** GET a JSON route handler; null when it cannot be reached or answers with an error (polling tries again, a look-up does without). */
export async function fetchJsonOrNull<T>(url: string): Promise<T | null> {
  const res = await fetch(url, { headers: { accept: "application/json" } }).catch(() => null);
  return res?.ok ? ((await res.json()) as T) : null;
}

/** A route handler's RFC 9457 problem: its detail (absent when the answer was not a problem) and field errors by JSON Pointer. */
export type TProblemAnswer = { ok: false; status: number; detail?: string; errors: Record<string, string> };

/** Calls a JSON route handler with `method` (and `body` as JSON): its answer, or its problem. */
export async function sendJson<T>(url: string, method: string, body?: unknown): Promise<{ ok: true; data: T } | TProblemAnswer> {
  const res = await fetch(url, {
    method,
    headers: { accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as unknown;
  if (res.ok) return { ok: true, data: json as T };
  const problem = json as { detail?: string; errors?: { field: string; message: string }[] } | null;
  return { ok: false, status: res.status, detail: problem?.detail, errors: Object.fromEntries((problem?.errors ?? []).map((e) => [e.field, e.message])) };
}
