import { otherMethods } from "@/lib/http/public-route";
import { z } from "zod";
import { ogcRoute, ZOgcPath } from "@/lib/ogc/ogc-route";
import { OGC_STATUS, statusInfo } from "@/lib/ogc/status-info";
import { runDocument } from "@/lib/runs/run-document";
import { listConsumerRuns } from "@/lib/runs/list-consumer-runs";
import { ZListRunsQuery } from "@/lib/runs/list-runs";
import { RUN_STATES } from "@/lib/runs/run-state-names";
import { apiBasePath } from "@/lib/runs/scope";

export const dynamic = "force-dynamic";

const STATUSES = Object.values(OGC_STATUS);
/**
 * A list parameter of the OGC job list (`processID`, `status`: OpenAPI `form` arrays), repeated
 * (`status=failed&status=successful`), comma-separated, or both; one message for any bad value.
 */
const list = (item: z.ZodType<string>, message: string) =>
  z.union([z.string(), z.array(z.string())]).transform((value, ctx) => {
    const values = (Array.isArray(value) ? value : [value]).flatMap((s) => s.split(","));
    if (values.every((v) => item.safeParse(v).success)) return values;
    ctx.addIssue({ code: "custom", message, params: { code: "invalid_value" } });
    return z.NEVER;
  });
const ZQuery = ZListRunsQuery.pick({ limit: true, cursor: true }).extend({
  status: list(z.enum(STATUSES as [string, ...string[]]), `Use job statuses from: ${STATUSES.join(", ")}.`).optional(),
  processID: list(z.string().regex(/^[a-z0-9-]{1,64}$/), "Use process ids of /processes.").optional(),
});

// GET /public/ogc/{organization}/{environment}/jobs - the consumer's jobs (runs) of every process it may run, newest first, paged
export const GET = ogcRoute({ params: ZOgcPath, query: ZQuery, caller: "environment" }, async ({ params, query, place, ogc }) => {
  const apis = query.processID ? ogc.apis.filter((a) => query.processID!.includes(a.path.api)) : ogc.apis;
  const states = query.status && RUN_STATES.filter((s) => query.status!.includes(OGC_STATUS[s]));
  const { runs, nextCursor } = await listConsumerRuns(
    ogc.consumerId,
    ogc.environmentId,
    apis.map((a) => a.scope.flowApiId),
    { limit: query.limit, cursor: query.cursor, states },
  );
  const jobs = runs.map((r) => statusInfo(runDocument(r, { base: apiBasePath({ ...params, api: r.api }), api: r.api }, r.version), place.base));
  const page = (cursor?: string) => {
    const params = { status: query.status?.join(","), processID: query.processID?.join(","), limit: String(query.limit), cursor };
    return `${place.base}/jobs?${new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined))}`;
  };
  const links = [{ href: page(), rel: "self", type: "application/json" }];
  if (nextCursor) links.push({ href: page(nextCursor), rel: "next", type: "application/json" });
  return Response.json({ jobs, links }, { headers: { "cache-control": "no-store" } });
});

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZOgcPath, ["GET"]);
