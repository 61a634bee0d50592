import { z } from "zod";

/** The environment's CORS origins form: one origin per line. */
export const ZCorsOriginsForm = z.object({ origins: z.string().max(10_000) });
export type TCorsOriginsForm = z.infer<typeof ZCorsOriginsForm>;

export const ZUpdateCorsOrigins = z.object({
  organization: z.string().min(1),
  environment: z.string().min(1),
  origins: z.array(z.string().max(2000)).max(100),
});
