import { consentDecisionRoute } from "@/lib/oauth/consent-route";

export const dynamic = "force-dynamic";

type TContext = { params: Promise<{ uid: string }> };

// POST /oauth/consent/{uid}/decision - allow (as a chosen consumer) or deny an OAuth client, then back to the provider
export const POST = async (req: Request, ctx: TContext) => consentDecisionRoute(req, (await ctx.params).uid);
