/**
 * Checks a run request's `subscriber` (OGC 18-062r2 callback URIs) where the run is accepted:
 * each URI must be one the service may call (lib/net/outbound-fetch.ts `checkOutboundUrl`:
 * https, no user info, no private or loopback address) unless the environment's outbound
 * allow-list names its host. Addresses behind host names are checked again at each delivery.
 * Used by lib/runs/check-run-request.ts.
 */
import "server-only";
import type { TFieldError } from "@/lib/errors";
import { outboundUrlFaults } from "@/lib/net/outbound-fetch";
import type { TSubscriber } from "@/lib/flows/subscriber";

/** The field errors of `subscriber` for an environment whose allow-list is `allowHosts`. */
export function subscriberFaults(subscriber: TSubscriber, allowHosts: readonly string[]): TFieldError[] {
  const uris = Object.entries(subscriber).filter((e): e is [string, string] => typeof e[1] === "string");
  return outboundUrlFaults(
    uris.map(([key, uri]) => [`/subscriber/${key}`, uri] as const),
    allowHosts,
  );
}
