import { protectedResourceMetadataResponse } from "@/lib/oauth/metadata-response";

export const dynamic = "force-dynamic";

type TContext = { params: Promise<{ organization: string; environment: string }> };

// GET /.well-known/oauth-protected-resource/public/mcp/{organization}/{environment} - protected resource metadata (RFC 9728)
export const GET = async (req: Request, ctx: TContext) => protectedResourceMetadataResponse(req, await ctx.params);
export const OPTIONS = GET;
