/** The fetch of every `queryOptions` factory: same-origin JSON route handlers, RFC 9457 problems as errors. */

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
