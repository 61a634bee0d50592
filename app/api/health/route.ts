import { health } from "@/lib/health";

export const dynamic = "force-dynamic";

// GET /api/health - 200 when the database and at least one worker are up, else 503 (within about 2 s, whatever the database does)
export async function GET(): Promise<Response> {
  const status = await health();
  const headers: Record<string, string> = { "cache-control": "no-store" };
  if (!status.ok) headers["retry-after"] = "5";
  return Response.json(status, { status: status.ok ? 200 : 503, headers });
}
