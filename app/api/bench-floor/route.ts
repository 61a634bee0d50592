export const dynamic = "force-dynamic";

// POST /api/bench-floor - the floor of `npm run bench`: a route handler that answers 202 and does no work.
// Only enabled when ENABLE_BENCH_FLOOR=1 (set by the benchmark); 404 otherwise.
export async function POST(req: Request): Promise<Response> {
  if (process.env.ENABLE_BENCH_FLOOR !== "1") return new Response(null, { status: 404 });
  await req.text();
  return new Response(JSON.stringify({ state: "queued" }), { status: 202, headers: { "content-type": "application/json" } });
}
