import { z } from "zod";
import { sessionRoute } from "@/lib/auth/session-route";
import { requireWorkspace } from "@/lib/auth/session";
import { validationError } from "@/lib/errors";
import { readJsonBody } from "@/lib/http/read-json-body";
import { getFlowPreview, startFlowPreview } from "@/lib/runs/preview-run";

export const dynamic = "force-dynamic";

const ZQuery = z.object({ wait_seconds: z.coerce.number().int().min(0).max(60).default(0) });

// POST /api/design/{organization}/{workspace}/flow-previews[?wait_seconds=] - run an unsaved flow document, every step's output a result (body: {document, inputs, parameters})
export const POST = sessionRoute(async ({ req, params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  const q = ZQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!q.success) throw validationError([{ field: "/query/wait_seconds", code: "invalid_value", message: "Use a whole number of seconds from 0 to 60." }]);
  const { runId } = await startFlowPreview(scope.designer, await readJsonBody(req));
  const doc = await getFlowPreview(scope.designer, runId, {
    base: `/api/design/${scope.organizationSlug}/${scope.workspace.slug}`,
    waitMs: q.data.wait_seconds * 1000,
  });
  return Response.json(doc, { status: doc.state === "completed" ? 201 : 202, headers: { location: doc.links.self } });
});
