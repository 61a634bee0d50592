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
