/**
 * Signed download links of result files: capability URLs in the manner of S3 presigned URLs,
 * so that an MCP client (which may hold an OAuth access token and no API key, and whose
 * model or user fetches a `resource_link` with no header at all) can download a file too
 * large to answer inline.
 *
 * A link is the public download address of one result file with three query parameters:
 *
 *   /public/api/{organization}/{environment}/{api}/runs/{run_id}/results/{key}?format=<f>&expires=<unix s>&signature=<base64url>
 *
 * `signature` is an HMAC-SHA256, under a key derived from `AUTH_SECRET` (lib/auth/secret.ts;
 * every web process shares it), of the API's path, the run id, the result key, the format
 * and the expiry. It grants exactly that: this one file in this one format, until `expires`
 * (`RESULT_LINK_TTL_SECONDS` after it was made), and nothing else (no other result, format,
 * run or call). Links are made only by a door that has just loaded the run for its own
 * consumer (the MCP tools), so a link names a run of the consumer it was given to; the HTTP
 * door's download route then serves it as that consumer's key would
 * (lib/mcp/signed-download.ts, kept with the door that hands the links out).
 *
 * `signResultLink` makes a link; `verifyResultLink` checks one and answers what it grants, or
 * null for an altered, unparseable or expired one (the caller answers 401). The clock is a
 * parameter for the tests.
 */
import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";
import { apiBasePath, type TApiPath } from "@/lib/runs/scope";

/**
 * How long a link works, seconds: long enough for a person to click a link an assistant
 * showed them in a conversation, short enough that a link copied into a log or a chat
 * history soon stops working (`run_result` makes a new one whenever asked).
 */
export const RESULT_LINK_TTL_SECONDS = 3600;

/** One result file a link grants. */
export interface TResultLinkTarget {
  path: TApiPath;
  runId: string;
  key: string;
  format: string;
}

/** The key of the links' HMACs: derived, so `AUTH_SECRET` itself signs nothing but sessions. */
function linkKey(): Buffer {
  return createHmac("sha256", authSecret()).update("flow-api result download links v1").digest();
}

function signature(t: TResultLinkTarget, expires: number): Buffer {
  // A JSON array: no field can run into the next, whatever characters a result key holds.
  const message = JSON.stringify([t.path.organization, t.path.environment, t.path.api, t.runId, t.key, t.format, expires]);
  return createHmac("sha256", linkKey()).update(message).digest();
}

/**
 * The signed link of `target` (absolute: `baseUrl` is `scheme://host[:port]`) and when it
 * expires. `nowMs`: the clock.
 */
export function signResultLink(baseUrl: string, target: TResultLinkTarget, nowMs = Date.now()): { url: string; expiresAt: Date } {
  const expires = Math.floor(nowMs / 1000) + RESULT_LINK_TTL_SECONDS;
  const query = new URLSearchParams({ format: target.format, expires: String(expires), signature: signature(target, expires).toString("base64url") });
  const path = `${apiBasePath(target.path)}/runs/${encodeURIComponent(target.runId)}/results/${encodeURIComponent(target.key)}`;
  return { url: `${baseUrl}${path}?${query}`, expiresAt: new Date(expires * 1000) };
}

/** True when the query names a signed link (whether or not it is valid): the download route then takes it as the credential. */
export function isSignedLinkQuery(query: URLSearchParams): boolean {
  return query.has("signature");
}

/**
 * What a link grants: `path`, `runId` and `key` from its address, `format`, `expires` and
 * `signature` from its query. Null when it was altered, is not a link this service made, or
 * has expired at `nowMs`.
 */
export function verifyResultLink(
  target: Omit<TResultLinkTarget, "format">,
  query: URLSearchParams,
  nowMs = Date.now(),
): (TResultLinkTarget & { expiresAt: Date }) | null {
  const format = query.get("format");
  const expiresText = query.get("expires");
  const given = Buffer.from(query.get("signature") ?? "", "base64url");
  if (!format || !expiresText || !/^\d{1,12}$/.test(expiresText)) return null;
  const expires = Number(expiresText);
  const granted = { ...target, format };
  const expected = signature(granted, expires);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (nowMs >= expires * 1000) return null;
  return { ...granted, expiresAt: new Date(expires * 1000) };
}
