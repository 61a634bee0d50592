/**
 * Next.js proxy (formerly middleware), only for the design tool and the console: it passes
 * the requested path and query to the server components as the `x-flow-path` request header,
 * so a layout that finds the visitor signed out can send them to `/sign-in` with that page as
 * the callback. It is NOT an access check (CVE-2025-29927: a proxy can be bypassed); every
 * page, route handler and server action checks the session and membership itself
 * (lib/auth/session.ts).
 */
import { NextResponse, type NextRequest } from "next/server";

export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set("x-flow-path", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ["/design/:path*", "/console/:path*"] };
