import { z } from "zod";
import { sessionRoute } from "@/lib/auth/session-route";
import { requireWorkspace } from "@/lib/auth/session";
import { validationError } from "@/lib/errors";
import { getFlowPreview } from "@/lib/runs/preview-run";

export const dynamic = "force-dynamic";

const ZQuery = z.object({ wait_seconds: z.coerce.number().int().min(0).max(60).default(0) });

// GET /api/design/{organization}/{workspace}/flow-previews/{runId}[?wait_seconds=] - one of the designer's previews: state, progress, error (naming the step), each step's count, columns and first rows
export const GET = sessionRoute(async ({ req, params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  const q = ZQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!q.success) throw validationError([{ field: "/query/wait_seconds", code: "invalid_value", message: "Use a whole number of seconds from 0 to 60." }]);
  const base = `/api/design/${scope.organizationSlug}/${scope.workspace.slug}`;
  return Response.json(await getFlowPreview(scope.designer, params.runId!, { base, waitMs: q.data.wait_seconds * 1000 }));
});
