// GET|POST /api/auth/* - next-auth's own endpoints (session, CSRF, sign-in callback, sign-out)
import { handlers } from "@/lib/auth/next-auth";

export const { GET, POST } = handlers;
