import { sessionRoute } from "@/lib/auth/session-route";
import { listMemberships, requireUser } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

// GET /api/me - the signed-in user and their organizations with roles (401 when signed out)
export const GET = sessionRoute({ auth: requireUser }, async ({ scope: user }) =>
  Response.json({ user: { id: user.id, email: user.email, name: user.name }, memberships: await listMemberships(user.id) }),
);
