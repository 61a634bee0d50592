import { workspaceRoute } from "@/lib/auth/session-route";
import { getRunOrThrow } from "@/lib/runs/get-run-or-throw";
import { runDocument } from "@/lib/runs/run-document";

export const dynamic = "force-dynamic";

// GET /api/design/{organization}/{workspace}/runs/{runId} - one of the designer's Try-it runs (state, progress, results); a preview of an unsaved document has no API and no version
export const GET = workspaceRoute({}, async ({ scope, params }) => {
  const run = await getRunOrThrow(scope.designer, params.runId!);
  return Response.json(runDocument(run, { base: scope.base, api: run.flowApiId ?? "" }, run.flowVersion?.version ?? 0));
});
