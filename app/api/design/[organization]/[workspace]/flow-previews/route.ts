import { z } from "zod";
import { workspaceRoute } from "@/lib/auth/session-route";
import { getFlowPreview, startFlowPreview } from "@/lib/runs/preview-run";

export const dynamic = "force-dynamic";

const ZQuery = z.object({ wait_seconds: z.coerce.number().int().min(0).max(60).default(0) });

// POST /api/design/{organization}/{workspace}/flow-previews[?wait_seconds=] - run an unsaved flow document, every step's output a result (body: {document, inputs, parameters})
export const POST = workspaceRoute({ query: ZQuery, body: z.unknown() }, async ({ scope, query, body }) => {
  const { runId } = await startFlowPreview(scope.designer, body);
  const doc = await getFlowPreview(scope.designer, runId, { base: scope.base, waitMs: query.wait_seconds * 1000 });
  return Response.json(doc, { status: doc.state === "completed" ? 201 : 202, headers: { location: doc.links.self } });
});
