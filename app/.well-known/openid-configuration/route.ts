import { oauthFetch } from "@/lib/oauth/provider";

export const dynamic = "force-dynamic";

// GET /.well-known/openid-configuration - the same metadata, where OpenID Connect clients look
export const GET = (req: Request) => oauthFetch(req);
export const OPTIONS = GET;
