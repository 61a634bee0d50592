import { sessionRoute } from "@/lib/auth/session-route";
import { requireWorkspace } from "@/lib/auth/session";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";
import { runDocument } from "@/lib/runs/run-document";

export const dynamic = "force-dynamic";

// GET /api/design/{organization}/{workspace}/runs/{runId} - one of the designer's Try-it runs (state, progress, results)
export const GET = sessionRoute(async ({ params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  const run = await getRunOrThrow(scope.designer, params.runId!);
  return Response.json(
    // A preview of an unsaved document (lib/runs/preview-run.ts) has no API and no version.
    runDocument(run, { base: `/api/design/${scope.organizationSlug}/${scope.workspace.slug}`, api: run.flowApiId ?? "" }, run.flowVersion?.version ?? 0),
  );
});
