import { z } from "zod";
import { otherMethods, publicRoute, ZApiPath } from "@/lib/http/public-route";
import { getResultFile } from "@/lib/runs/get-result-file";
import { ifNoneMatchMatches } from "@/lib/http/conditional";

export const dynamic = "force-dynamic";

const ZParams = ZApiPath.extend({ runId: z.string(), key: z.string().min(1) });

// GET /public/api/{organization}/{environment}/{api}/runs/{run_id}/results/{key} - download one result file
export const GET = publicRoute({ params: ZParams }, async ({ req, params, caller }) => {
  const format = new URL(req.url).searchParams.get("format");
  const { file, filename, mediaType, stream } = await getResultFile(caller.scope, params.runId, params.key, format);
  const etag = `"${file.sha256}"`;
  const headers = {
    "content-type": mediaType,
    "content-disposition": `attachment; filename="${filename.replace(/["\\\r\n]/g, "_")}"`,
    etag,
    "cache-control": "private, max-age=3600",
  };
  if (ifNoneMatchMatches(req.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  return new Response(stream(), { status: 200, headers: { ...headers, "content-length": String(file.sizeBytes) } });
});

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZParams, ["GET"]);
