/**
 * An environment's outbound allow-list (`environment.outboundHosts`): host names or IP
 * addresses that webhook deliveries and layer inputs by `href` may reach over plain http or on
 * a private or loopback address (lib/net/outbound-fetch.ts). Empty (the default): only public
 * https. Meant for a company's own network and for tests, never needed for public services.
 *
 * @throws AppError `validation_failed` naming `/hosts/<index>` for an entry that is not a host.
 */
import "server-only";
import { db } from "@/lib/db";
import { canonicalEntries } from "@/lib/errors";

const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The canonical form of a host entry (lower case, IPv6 without brackets), or null. */
export function canonicalHost(value: string): string | null {
  const v = value
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  if (HOST.test(v)) return v;
  try {
    return new URL(`http://[${v}]/`).hostname.replace(/^\[|\]$/g, "");
  } catch {
    return null;
  }
}

/** Replaces the allow-list of `environmentId`; returns it as stored (canonical, no duplicates). */
export async function setOutboundHosts(environmentId: string, hosts: string[]): Promise<string[]> {
  const out = canonicalEntries(hosts, canonicalHost, "hosts", "invalid_host", (h) => `"${h}" is not a host name or IP address.`);
  await db.environment.update({ where: { id: environmentId }, data: { outboundHosts: out } });
  return out;
}

/** The allow-list of `environmentId` as stored. */
export async function readOutboundHosts(environmentId: string): Promise<string[]> {
  const env = await db.environment.findUniqueOrThrow({ where: { id: environmentId }, select: { outboundHosts: true } });
  return env.outboundHosts;
}
