import { health } from "@/lib/health";

export const dynamic = "force-dynamic";

// GET /api/health - 200 when the database and at least one worker are up, else 503
export async function GET(): Promise<Response> {
  const status = await health();
  return Response.json(status, { status: status.ok ? 200 : 503, headers: { "cache-control": "no-store" } });
}
