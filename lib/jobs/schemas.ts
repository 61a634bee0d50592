/** Payload schemas of the background jobs (kept apart from the registry to avoid import cycles). */
import { z } from "zod";
import { ZResultFormat } from "@/lib/formats/registry";

export const ZRunJob = z.object({ runId: z.uuid() });
export type TRunJob = z.infer<typeof ZRunJob>;

export const ZPurgeJob = z.object({}).loose();

/** One format of one result of a completed run, made from the result's copy on first request. */
export const ZResultFormatJob = z.object({ runId: z.uuid(), key: z.string().min(1), format: ZResultFormat });
export type TResultFormatJob = z.infer<typeof ZResultFormatJob>;

/** One staged layer upload to parse, sort and write as the layer's new file. */
export const ZLayerImportJob = z.object({ importId: z.uuid() });
export type TLayerImportJob = z.infer<typeof ZLayerImportJob>;

/** One webhook delivery (a `webhook_delivery` row) to send, or to try again. */
export const ZWebhookDeliverJob = z.object({ deliveryId: z.uuid() });
export type TWebhookDeliverJob = z.infer<typeof ZWebhookDeliverJob>;
