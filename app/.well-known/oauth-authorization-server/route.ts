import { oauthFetch } from "@/lib/oauth/provider";

export const dynamic = "force-dynamic";

// GET /.well-known/oauth-authorization-server - authorization server metadata (RFC 8414)
export const GET = (req: Request) => oauthFetch(req, "/.well-known/openid-configuration");
export const OPTIONS = GET;
