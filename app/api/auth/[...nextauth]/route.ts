// GET|POST /api/auth/* - next-auth's own endpoints (session, CSRF, sign-in callback, sign-out)
export { GET, POST } from "@/lib/auth/handlers";
