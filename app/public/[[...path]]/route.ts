import { problem } from "@/lib/http/problem";

export const dynamic = "force-dynamic";

// ANY /public/... that no route serves - a problem-details 404, never an HTML page
function notFound(req: Request): Response {
  return problem("not_found", "Nothing is served at this address. Published APIs live at /public/api/{organization}/{environment}/{api}.", {
    instance: new URL(req.url).pathname,
  });
}

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
