/**
 * zod schemas of the console's forms, shared by the form (react-hook-form + zodResolver) and
 * its server action. The domain checks the same rules again (lib/consumers/consumer-name.ts,
 * lib/keys/key-input.ts).
 */
import { z } from "zod";
import { ZWebhookEndpointInput } from "@/lib/webhooks/endpoint-input";
import { ZConsumerName } from "@/lib/consumers/consumer-name";
import { ZKeyName, ZOverlapMinutes } from "@/lib/keys/key-input";

export const ZEnvironmentInput = z.object({ organization: z.string().min(1), environment: z.string().min(1) });

export const ZConsumerForm = z.object({ name: ZConsumerName });
export const ZCreateConsumer = ZEnvironmentInput.extend({ name: ZConsumerName });
export const ZRenameConsumer = ZEnvironmentInput.extend({ consumerId: z.uuid(), name: ZConsumerName });

/** `expiresAt`: an ISO date-time or "" (no expiry). */
export const ZKeyForm = z.object({ consumerId: z.uuid("Choose a consumer."), name: ZKeyName, expiresAt: z.string() });
export const ZCreateKey = ZEnvironmentInput.extend({ consumerId: z.uuid(), name: ZKeyName, expiresAt: z.string().optional() });
export const ZRotateKey = ZEnvironmentInput.extend({ keyId: z.uuid(), overlapMinutes: ZOverlapMinutes });

/** A list of the environment edited as lines: its CORS origins or its outbound allow-list. */
export const ZEnvironmentList = z.enum(["origins", "hosts"]);
export type TEnvironmentList = z.infer<typeof ZEnvironmentList>;

export const ZListForm = z.object({ text: z.string().max(10_000) });
export type TListForm = z.infer<typeof ZListForm>;

export const ZUpdateEnvironmentList = ZEnvironmentInput.extend({ list: ZEnvironmentList, items: z.array(z.string().max(2000)).max(100) });

/** A new webhook endpoint of a consumer: the domain's own input schema. */
export { ZWebhookEndpointInput as ZWebhookForm } from "@/lib/webhooks/endpoint-input";

export const ZCreateWebhook = ZEnvironmentInput.extend({ consumerId: z.uuid() }).and(ZWebhookEndpointInput);
