import { z } from "zod";
import { ogcRoute, ZOgcPath } from "@/lib/ogc/ogc-route";
import { statusInfo } from "@/lib/ogc/status-info";
import { runDocument } from "@/lib/runs/run-document";
import { listConsumerRuns } from "@/lib/runs/list-consumer-runs";
import { apiBasePath } from "@/lib/runs/scope";

export const dynamic = "force-dynamic";

const ZQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(20) });

// GET /public/ogc/{organization}/{environment}/jobs - the consumer's jobs (runs) of every process it may run, newest first
export const GET = ogcRoute({ params: ZOgcPath, query: ZQuery, caller: "environment" }, async ({ params, query, place, ogc }) => {
  const runs = await listConsumerRuns(
    ogc.consumerId,
    ogc.environmentId,
    ogc.apis.map((a) => a.scope.flowApiId),
    query.limit,
  );
  const jobs = runs.map((r) =>
    statusInfo(runDocument(r, { base: apiBasePath({ ...params, api: r.api }), api: r.api }, r.version, { withResults: false }), place.base),
  );
  return Response.json({ jobs, links: [{ href: `${place.base}/jobs`, rel: "self", type: "application/json" }] }, { headers: { "cache-control": "no-store" } });
});
