/** Payload schemas of the background jobs (kept apart from the registry to avoid import cycles). */
import { z } from "zod";

export const ZRunJob = z.object({ runId: z.uuid() });
export type TRunJob = z.infer<typeof ZRunJob>;

export const ZPurgeJob = z.object({}).loose();
