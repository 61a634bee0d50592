/**
 * Requests the service makes to addresses a user gave it (webhook deliveries, layer inputs by
 * `href`), guarded against server-side request forgery (OWASP SSRF prevention cheat sheet):
 *
 * - only `https:` URLs, without user info; `http:` only to a host the environment's allow-list
 *   names (`environment.outboundHosts`, lib/net/outbound-hosts.ts);
 * - every address a host name resolves to must be public unicast (ipaddr.js `range()`), checked
 *   at connect time by the socket's own DNS lookup, so a name that resolves differently on the
 *   second lookup (DNS rebinding) is still refused; a host on the allow-list may be private or
 *   loopback (tests use 127.0.0.1 this way);
 * - redirects are followed by hand, at most `MAX_REDIRECTS`, each hop checked like the first;
 * - a time limit for the whole exchange (headers and body) and a byte limit on the body read.
 *
 * Errors: `OutboundUrlError` (the URL or an address it leads to is not allowed; `reason` is a
 * sentence for the user), and whatever `fetch` throws for network failures and the time limit
 * (`TimeoutError` / `AbortError` DOMExceptions).
 */
import "server-only";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, fetch, type Response } from "undici";
import type { TFieldError } from "@/lib/errors";

/** Redirects followed before giving up (each hop is checked like the first URL). */
export const MAX_REDIRECTS = 5;

/** A URL, or an address it resolves or redirects to, that the service may not call. */
export class OutboundUrlError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "OutboundUrlError";
  }
}

/** Whether `address` (IPv4 or IPv6, IPv4-mapped IPv6 unwrapped) is public unicast. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
}

function allowed(host: string, allowHosts: readonly string[]): boolean {
  return allowHosts.includes(host.toLowerCase().replace(/^\[|\]$/g, ""));
}

/**
 * Checks the form of `raw` and returns it parsed: https (or http to an allow-listed host), no
 * user info, and, when the host is an IP literal, a public one unless allow-listed. Names are
 * checked later, when the socket resolves them.
 *
 * @throws OutboundUrlError naming what is wrong.
 */
export function checkOutboundUrl(raw: string, allowHosts: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundUrlError(`"${raw}" is not an absolute URL.`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const listed = allowed(host, allowHosts);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && listed)) {
    throw new OutboundUrlError(`Only https URLs are allowed (got ${url.protocol.replace(":", "")}://${url.host}).`);
  }
  if (url.username || url.password) throw new OutboundUrlError("URLs with a user name or password are not allowed.");
  if (isIP(host) && !listed && !isPublicAddress(host)) {
    throw new OutboundUrlError(`${host} is a private, loopback or reserved address.`);
  }
  return url;
}

/**
 * The field errors (code `url_not_allowed`) of the URLs `checkOutboundUrl` refuses, for the
 * doors that take user-given URLs (callback URIs, inputs by reference): `urls` pairs each
 * field's JSON Pointer with its URL.
 */
export function outboundUrlFaults(urls: readonly (readonly [field: string, url: string])[], allowHosts: readonly string[]): TFieldError[] {
  const errors: TFieldError[] = [];
  for (const [field, url] of urls) {
    try {
      checkOutboundUrl(url, allowHosts);
    } catch (err) {
      if (!(err instanceof OutboundUrlError)) throw err;
      errors.push({ field, code: "url_not_allowed", message: err.reason });
    }
  }
  return errors;
}

/** A DNS lookup for sockets that refuses names resolving to a non-public address. */
function guardedLookup(allowHosts: readonly string[]) {
  return (hostname: string, options: object, callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (!allowed(hostname, allowHosts)) {
        const bad = addresses.find((a) => !isPublicAddress(a.address));
        if (bad) return callback(new OutboundUrlError(`${hostname} resolves to ${bad.address}, a private, loopback or reserved address.`), []);
      }
      const all = (options as { all?: boolean }).all;
      if (all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export interface TOutboundRequest {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Hosts that may be reached over http or on private addresses (the environment's allow-list). */
  allowHosts: readonly string[];
  /** Time limit for the whole exchange, in ms. */
  timeoutMs: number;
  /** Redirects followed (default `MAX_REDIRECTS`); one more is an `OutboundUrlError`. */
  maxRedirects?: number;
  signal?: AbortSignal;
}

/**
 * Sends the request with the checks of the module doc and returns the final response (its body
 * not yet read; the caller reads it within the same time limit through `response.body`).
 *
 * @throws OutboundUrlError for a refused URL, address or redirect; network and time-limit errors as `fetch` throws them.
 */
export async function outboundFetch(raw: string, req: TOutboundRequest): Promise<Response> {
  const signal = req.signal ? AbortSignal.any([req.signal, AbortSignal.timeout(req.timeoutMs)]) : AbortSignal.timeout(req.timeoutMs);
  const dispatcher = new Agent({ connect: { lookup: guardedLookup(req.allowHosts) } });
  let url = checkOutboundUrl(raw, req.allowHosts);
  for (let hop = 0; ; hop++) {
    let res: Response;
    try {
      res = await fetch(url, { method: req.method ?? "GET", headers: req.headers, body: req.body, redirect: "manual", signal, dispatcher });
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause;
      throw cause instanceof OutboundUrlError ? cause : err;
    }
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location) return res;
    await res.body?.cancel();
    const max = req.maxRedirects ?? MAX_REDIRECTS;
    if (hop >= max) throw new OutboundUrlError(max ? `More than ${max} redirects.` : "Redirects are not followed here.");
    url = checkOutboundUrl(new URL(location, url).href, req.allowHosts);
  }
}

/**
 * Reads at most `maxBytes` of a response body as text: the bytes past the limit are not read
 * (for showing "the first bytes" of a webhook receiver's answer).
 */
export async function readFirstBytes(res: Response, maxBytes: number): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < maxBytes) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks).subarray(0, maxBytes).toString("utf8");
}
