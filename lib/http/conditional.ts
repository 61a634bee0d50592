/**
 * Conditional requests (RFC 9110 section 13.1.2, If-None-Match): true when the header
 * matches `etag`, by weak comparison (a `W/` prefix is ignored), for a list of entity tags
 * or `*`.
 */
export function ifNoneMatchMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  const trimmed = header.trim();
  if (trimmed === "*") return true;
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  const wanted = strip(etag);
  return trimmed.split(",").some((t) => strip(t) === wanted);
}
