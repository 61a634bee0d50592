/**
 * The `subscriber` of a run request (OGC 18-062r2 `subscriber.yaml`, requirements class
 * "callback"): URIs the service calls about this one run. Accepted by the HTTP door's
 * `POST /runs` body and the OGC door's execute request alike; the URIs are checked against
 * the environment's outbound rules when the run is accepted (lib/runs/check-subscriber.ts).
 */
import { z } from "zod";

const ZUri = z.string().min(1).max(2000);

export const ZSubscriber = z
  .strictObject({
    successUri: ZUri.optional().describe("Called when the run completes (HTTP door: the run document; OGC door: the results)."),
    inProgressUri: ZUri.optional().describe("Called once when the run starts (the run document, or the OGC statusInfo)."),
    failedUri: ZUri.optional().describe("Called when the run fails or is cancelled (the run document, or the OGC statusInfo)."),
  })
  .describe(
    "Callbacks for this run only (OGC API - Processes `subscriber`). Each URI must be https on a public address, or on a host of the environment's outbound allow-list. Not signed: register a webhook in the console for signed deliveries.",
  );
export type TSubscriber = z.infer<typeof ZSubscriber>;
