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
import { checkOutboundUrl, OutboundUrlError } from "@/lib/net/outbound-fetch";
import { readOutboundHosts } from "@/lib/net/outbound-hosts";
import type { TSubscriber } from "@/lib/flows/subscriber";

/** The field errors of `subscriber` for an environment whose allow-list is `allowHosts`. */
export function subscriberFaults(subscriber: TSubscriber, allowHosts: readonly string[]): TFieldError[] {
  const errors: TFieldError[] = [];
  for (const [key, uri] of Object.entries(subscriber)) {
    if (typeof uri !== "string") continue;
    try {
      checkOutboundUrl(uri, allowHosts);
    } catch (err) {
      if (!(err instanceof OutboundUrlError)) throw err;
      errors.push({ field: `/subscriber/${key}`, code: "url_not_allowed", message: err.reason });
    }
  }
  return errors;
}

/** Throws `validation_failed` unless every URI of `subscriber` may be called from `environmentId`. */
export async function checkSubscriber(environmentId: string, subscriber: TSubscriber): Promise<void> {
  const errors = subscriberFaults(subscriber, await readOutboundHosts(environmentId));
  if (errors.length) throw validationError(errors, "The subscriber's callback URIs cannot be used.");
}
