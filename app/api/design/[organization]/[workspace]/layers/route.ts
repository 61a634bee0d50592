import { z } from "zod";
import { sessionRoute } from "@/lib/auth/session-route";
import { requireWorkspace } from "@/lib/auth/session";
import { validationError } from "@/lib/errors";
import { importLayer, LAYER_FORMATS_IN, MAX_LAYER_UPLOAD_BYTES } from "@/lib/layers/import-layer";
import { AppError } from "@/lib/errors";

export const dynamic = "force-dynamic";

const ZQuery = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  format: z.enum(LAYER_FORMATS_IN),
  lon: z.string().optional(),
  lat: z.string().optional(),
});

// POST /api/design/{organization}/{workspace}/layers?id=&name=&format=geojson|csv|geoparquet[&lon=&lat=] - add or replace a layer (body: the file)
export const POST = sessionRoute(async ({ req, params }) => {
  const scope = await requireWorkspace({ organization: params.organization!, workspace: params.workspace! });
  const q = ZQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!q.success) throw validationError(q.error.issues.map((i) => ({ field: `/${String(i.path[0])}`, code: "invalid_value", message: i.message })));
  const declared = Number(req.headers.get("content-length") ?? 0);
  if (declared > MAX_LAYER_UPLOAD_BYTES) throw new AppError("payload_too_large", `A layer file may be at most ${MAX_LAYER_UPLOAD_BYTES / 1024 / 1024} MiB.`);
  const bytes = new Uint8Array(await req.arrayBuffer());
  const result = await importLayer(scope.designer, {
    id: q.data.id,
    name: q.data.name,
    format: q.data.format,
    bytes,
    lonColumn: q.data.lon || undefined,
    latColumn: q.data.lat || undefined,
  });
  return Response.json(result, { status: result.replaced ? 200 : 201 });
});
