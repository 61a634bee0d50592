/**
 * Sets the browser origins an environment lets call its public API (CORS; read by
 * lib/keys/cors-origins.ts). Each entry is `*` (any origin) or an origin as browsers send it
 * in the `Origin` header (RFC 6454: `scheme://host[:port]`, no path, lower-case scheme and
 * host, no default port). Duplicates are dropped; the order is kept. The environment table's
 * trigger sends `auth_changed`, so every web process applies the change on its next request.
 *
 * @throws AppError `validation_failed` naming `/origins/<index>` for each entry that is not an origin.
 */
import "server-only";
import { db } from "@/lib/db";
import { canonicalEntries } from "@/lib/errors";

/** The canonical origin of `value`, or null when it is not one. */
export function canonicalOrigin(value: string): string | null {
  const v = value.trim();
  if (v === "*") return "*";
  if (!URL.canParse(v)) return null;
  const url = new URL(v);
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")) return null;
  if (/\/./.test(v.replace(/^[a-z]+:\/\//i, ""))) return null;
  return url.origin;
}

export async function setCorsOrigins(environmentId: string, origins: string[]): Promise<string[]> {
  const out = canonicalEntries(
    origins,
    canonicalOrigin,
    "origins",
    "invalid_origin",
    (o) => `"${o}" is not an origin like https://app.example.com (or * for any).`,
  );
  await db.environment.update({ where: { id: environmentId }, data: { corsOrigins: out } });
  return out;
}

/** The environment's origins as stored (uncached, for the console). */
export async function readCorsOrigins(environmentId: string): Promise<string[]> {
  const env = await db.environment.findUniqueOrThrow({ where: { id: environmentId }, select: { corsOrigins: true } });
  return env.corsOrigins;
}
