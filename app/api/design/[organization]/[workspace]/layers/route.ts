import { z } from "zod";
import { workspaceRoute } from "@/lib/auth/session-route";
import { importFailureError } from "@/lib/layers/import-failure";
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
export const POST = workspaceRoute({ query: ZQuery }, async ({ req, scope, query: q }) => {
  const declared = req.headers.get("content-length");
  const upload = {
    id: q.id,
    name: q.name,
    format: q.format,
    lonColumn: q.lon || undefined,
    latColumn: q.lat || undefined,
    replace: q.replace === "1" || q.replace === "true",
  };
  const staged = await stageLayerUpload(scope.designer, upload, req.body, declared === null ? null : Number(declared));
  const doc = await waitForLayerImport(scope.designer, staged.import_id, q.wait * 1000);
  if (doc.state === "completed" && doc.result) return Response.json({ ...doc.result, importId: doc.import_id }, { status: doc.result.replaced ? 200 : 201 });
  if (doc.state === "failed" && doc.error) throw importFailureError(doc.error);
  return Response.json(doc, { status: 202, headers: { location: `${scope.base}/layer-imports/${doc.import_id}`, "retry-after": "2" } });
});

// GET /api/design/{organization}/{workspace}/layers - the workspace's layers as a run's inputs may use them (id, name, kind, geometry types, count)
export const GET = workspaceRoute({}, async ({ scope }) => Response.json(await readableLayersOf({ workspaceId: scope.workspace.id })));
