/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, the MCP
 * authorization specification's preferred registration): a client whose `client_id` is an
 * https URL publishes its metadata (client_name, redirect_uris ...) at that URL.
 *
 * `fetchClientMetadataDocument(url)` fetches it through lib/net/outbound-fetch.ts (https only,
 * no private or loopback addresses, checked at connect time; 5 s, 64 KiB, no redirects), checks that its `client_id` is the URL itself and
 * that it names redirect URIs, and returns the metadata as a public client
 * (`token_endpoint_auth_method` "none": such a client holds no secret) with how long it may
 * be kept (its `Cache-Control: max-age`, 5 minutes to 1 day, default 1 hour). Anything else
 * is `null` (the authorization request then fails as an unknown client).
 */
import "server-only";
import { outboundFetch, readFirstBytes } from "@/lib/net/outbound-fetch";

const MAX_BYTES = 64 * 1024;

/** True when `clientId` is meant as a metadata document URL. */
export function isClientMetadataDocumentId(clientId: string): boolean {
  return /^https:\/\/[^/]+\/./.test(clientId);
}

function maxAge(cacheControl: string | null): number {
  const m = cacheControl?.match(/max-age=(\d+)/);
  const seconds = m ? Number(m[1]) : 3600;
  return Math.min(86_400, Math.max(300, seconds));
}

/** The client's metadata, or null (see module doc). */
export async function fetchClientMetadataDocument(url: string): Promise<{ payload: Record<string, unknown>; maxAgeSeconds: number } | null> {
  try {
    const parsed = new URL(url);
    if (parsed.hash) return null;
    // https only, public addresses checked when the socket connects (no DNS rebinding), no redirects.
    const res = await outboundFetch(url, { allowHosts: [], timeoutMs: 5_000, maxRedirects: 0, headers: { accept: "application/json" } });
    if (!res.ok) return null;
    const text = await readFirstBytes(res, MAX_BYTES + 1);
    if (text.length > MAX_BYTES) return null;
    const doc = JSON.parse(text) as Record<string, unknown>;
    if (doc.client_id !== url || !Array.isArray(doc.redirect_uris) || doc.redirect_uris.length === 0) return null;
    const payload: Record<string, unknown> = {
      client_id: url,
      client_name: typeof doc.client_name === "string" ? doc.client_name : parsed.hostname,
      redirect_uris: doc.redirect_uris,
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
    if (typeof doc.client_uri === "string") payload.client_uri = doc.client_uri;
    if (typeof doc.logo_uri === "string") payload.logo_uri = doc.logo_uri;
    return { payload, maxAgeSeconds: maxAge(res.headers.get("cache-control")) };
  } catch {
    return null;
  }
}
