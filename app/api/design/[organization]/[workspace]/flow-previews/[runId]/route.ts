import { z } from "zod";
import { workspaceRoute } from "@/lib/auth/session-route";
import { getFlowPreview } from "@/lib/runs/preview-run";

export const dynamic = "force-dynamic";

const ZQuery = z.object({ wait_seconds: z.coerce.number().int().min(0).max(60).default(0) });

// GET /api/design/{organization}/{workspace}/flow-previews/{runId}[?wait_seconds=] - one of the designer's previews: state, progress, error (naming the step), each step's count, columns and first rows
export const GET = workspaceRoute({ query: ZQuery }, async ({ scope, params, query }) =>
  Response.json(await getFlowPreview(scope.designer, params.runId!, { base: scope.base, waitMs: query.wait_seconds * 1000 })),
);
