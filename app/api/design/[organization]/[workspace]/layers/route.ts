import { z } from "zod";
import { sessionRoute } from "@/lib/auth/session-route";
import { requireWorkspace } from "@/lib/auth/session";
import { AppError, validationError } from "@/lib/errors";
import { waitForLayerImport } from "@/lib/layers/layer-imports";
import { stageLayerUpload, UPLOAD_FORMATS } from "@/lib/layers/stage-upload";
import { readableLayersOf } from "@/lib/layers/list-layers";

export const dynamic = "force-dynamic";

const ZQuery = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  format: z.enum(UPLOAD_FORMATS),
  lon: z.string().optional(),
  lat: z.string().optional(),
  replace: z.enum(["0", "1", "true", "false"]).optional(),
  /** Seconds to wait for the import to end before answering 202 (default 20, at most 60). */
  wait: z.coerce.number().int().min(0).max(60).default(20),
});

// POST /api/design/{organization}/{workspace}/layers?id=&name=&format=geojson|geojsonseq|csv|geoparquet[&lon=&lat=&replace=1&wait=] - add or replace a layer (body: the file, streamed)
export const POST = sessionRoute(async ({ req, params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  const q = ZQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!q.success) throw validationError(q.error.issues.map((i) => ({ field: `/${String(i.path[0])}`, code: "invalid_value", message: i.message })));
  const declared = req.headers.get("content-length");
  const staged = await stageLayerUpload(
    scope.designer,
    {
      id: q.data.id,
      name: q.data.name,
      format: q.data.format,
      lonColumn: q.data.lon || undefined,
      latColumn: q.data.lat || undefined,
      replace: q.data.replace === "1" || q.data.replace === "true",
    },
    req.body,
    declared === null ? null : Number(declared),
  );
  const doc = await waitForLayerImport(scope.designer, staged.import_id, q.data.wait * 1000);
  if (doc.state === "completed" && doc.result) return Response.json({ ...doc.result, importId: doc.import_id }, { status: doc.result.replaced ? 200 : 201 });
  if (doc.state === "failed" && doc.error) {
    const code = doc.error.code === "validation_failed" || doc.error.code === "payload_too_large" ? doc.error.code : "internal";
    throw new AppError(code, doc.error.detail, { errors: doc.error.errors });
  }
  const self = `/api/design/${params.organization}/${params.workspace}/layer-imports/${doc.import_id}`;
  return Response.json(doc, { status: 202, headers: { location: self, "retry-after": "2" } });
});

// GET /api/design/{organization}/{workspace}/layers - the workspace's layers as a run's inputs may use them (id, name, kind, geometry types, count)
export const GET = sessionRoute(async ({ params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  return Response.json(await readableLayersOf({ workspaceId: scope.workspace.id }));
});
