import { oauthFetch } from "@/lib/oauth/provider";

export const dynamic = "force-dynamic";

// GET, POST /oauth/... - the authorization server's endpoints (authorize, token, register, revoke, jwks)
export const GET = (req: Request) => oauthFetch(req);
export const POST = GET;
export const OPTIONS = GET;
export const DELETE = GET;
export const PUT = GET;
