/**
 * Checks a run request's `subscriber` (OGC 18-062r2 callback URIs) where the run is accepted:
 * each URI must be one the service may call (lib/net/outbound-fetch.ts `checkOutboundUrl`:
 * https, no user info, no private or loopback address) unless the environment's outbound
 * allow-list names its host. Addresses behind host names are checked again at each delivery.
 *
 * @throws AppError `validation_failed` naming `/subscriber/<uri>` for each URI refused.
 */
import "server-only";
import { validationError, type TFieldError } from "@/lib/errors";
import { outboundUrlFaults } from "@/lib/net/outbound-fetch";
import { readOutboundHosts } from "@/lib/net/outbound-hosts";
import type { TSubscriber } from "@/lib/flows/subscriber";

/** The field errors of `subscriber` for an environment whose allow-list is `allowHosts`. */
export function subscriberFaults(subscriber: TSubscriber, allowHosts: readonly string[]): TFieldError[] {
  const uris = Object.entries(subscriber).filter((e): e is [string, string] => typeof e[1] === "string");
  return outboundUrlFaults(
    uris.map(([key, uri]) => [`/subscriber/${key}`, uri] as const),
    allowHosts,
  );
}

/** Throws `validation_failed` unless every URI of `subscriber` may be called from `environmentId`. */
export async function checkSubscriber(environmentId: string, subscriber: TSubscriber): Promise<void> {
  const errors = subscriberFaults(subscriber, await readOutboundHosts(environmentId));
  if (errors.length) throw validationError(errors, "The subscriber's callback URIs cannot be used.");
}
