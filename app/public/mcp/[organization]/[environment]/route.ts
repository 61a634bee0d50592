import { handleMcpRequest } from "@/lib/mcp/handle-mcp-request";

export const dynamic = "force-dynamic";

type TContext = { params: Promise<{ organization: string; environment: string }> };

// POST /public/mcp/{organization}/{environment} - one MCP message (Streamable HTTP, stateless)
export const POST = async (req: Request, ctx: TContext) => handleMcpRequest(req, await ctx.params);

// GET, DELETE /public/mcp/{organization}/{environment} - 2025-era session streams: 405 (stateless), after the same checks
export const GET = POST;
export const DELETE = POST;
