/** A new webhook endpoint as the console sends it: its URL and the run events it wants (shared by the form and the domain). */
import { z } from "zod";
import { RUN_EVENTS } from "@/lib/runs/webhook-events";

export const ZWebhookEndpointInput = z.object({
  url: z.string().trim().min(1, "Enter the URL.").max(2000),
  events: z.array(z.enum(RUN_EVENTS)).min(1, "Choose at least one event."),
});
export type TWebhookEndpointInput = z.infer<typeof ZWebhookEndpointInput>;
