/**
 * The door's check of inputs by reference (`{"href"}`, lib/flows/href-input.ts), with the run
 * request: each URL's form against the outbound rules (lib/net/outbound-fetch.ts
 * `checkOutboundUrl`: https, or http and private addresses only for a host on the environment's
 * allow-list `environment.outboundHosts`, lib/net/outbound-hosts.ts). Nothing is fetched here:
 * the worker fetches when the run starts (lib/runs/href-input.ts), checking every address it
 * connects to.
 *
 * @throws AppError `validation_failed` naming `/inputs/<name>/href` (code `url_not_allowed`).
 */
import "server-only";
import { validationError } from "@/lib/errors";
import { isHrefValue, type THrefValue } from "@/lib/flows/run-request";
import { outboundUrlFaults } from "@/lib/net/outbound-fetch";
import { readOutboundHosts } from "@/lib/net/outbound-hosts";
import type { TRunScope } from "@/lib/runs/scope";

/** The allow-list that applies to a run: its environment's, none for a designer's run. */
export async function allowHostsOf(environmentId: string | null): Promise<string[]> {
  return environmentId ? readOutboundHosts(environmentId) : [];
}

/**
 * Checks every href input of a run request (see module doc).
 * @throws AppError `validation_failed` naming `/inputs/<name>/href` for each URL refused.
 */
export async function checkHrefInputs(scope: TRunScope, inputs: Record<string, unknown>): Promise<void> {
  const hrefs = Object.entries(inputs).filter((e): e is [string, THrefValue] => isHrefValue(e[1]));
  if (hrefs.length === 0) return;
  const allowHosts = await allowHostsOf(scope.kind === "key" ? scope.environmentId : null);
  const errors = outboundUrlFaults(
    hrefs.map(([name, v]) => [`/inputs/${name}/href`, v.href] as const),
    allowHosts,
  );
  if (errors.length) throw validationError(errors, "Some inputs refer to URLs the service may not fetch.");
}
