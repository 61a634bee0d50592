/** next-auth's route handlers, for app/api/auth/[...nextauth]/route.ts. */
import "server-only";
import { handlers } from "@/lib/auth/next-auth";

export const { GET, POST } = handlers;
