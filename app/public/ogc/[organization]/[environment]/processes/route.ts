import { otherMethods } from "@/lib/http/public-route";
import { z } from "zod";
import { ogcRoute, ZOgcPath } from "@/lib/ogc/ogc-route";
import { PROCESS_LIST_LIMIT_MAX, processSummary } from "@/lib/ogc/process-description";

export const dynamic = "force-dynamic";

const ZQuery = z.object({
  limit: z
    .string()
    .regex(/^\d{1,5}$/, `Use an integer from 1 to ${PROCESS_LIST_LIMIT_MAX}.`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= PROCESS_LIST_LIMIT_MAX, `Use an integer from 1 to ${PROCESS_LIST_LIMIT_MAX}.`)
    .optional(),
  cursor: z.string().max(64).optional(),
});

// GET /public/ogc/{organization}/{environment}/processes - the processes (published APIs) the key may run, by id; `limit` pages them (OGC 18-062r2, /req/core/pl-limit-response)
export const GET = ogcRoute({ params: ZOgcPath, query: ZQuery, caller: "environment" }, async ({ query, place, ogc }) => {
  // by id (the API's slug, compared as code units, as the cursor is): a page goes on after the last id of the previous one
  const byId = ogc.apis.toSorted((a, b) => (a.path.api < b.path.api ? -1 : a.path.api > b.path.api ? 1 : 0));
  const after = byId.filter((a) => query.cursor === undefined || a.path.api > query.cursor);
  const page = query.limit === undefined ? after : after.slice(0, query.limit);
  const href = (cursor?: string) =>
    `${place.base}/processes${query.limit === undefined && cursor === undefined ? "" : `?${new URLSearchParams({ ...(query.limit && { limit: String(query.limit) }), ...(cursor && { cursor }) })}`}`;
  const links = [{ href: href(query.cursor), rel: "self", type: "application/json" }];
  if (page.length < after.length) links.push({ href: href(page.at(-1)!.path.api), rel: "next", type: "application/json" });
  const processes = page.map((a) =>
    processSummary({ slug: a.path.api, name: a.name, description: a.description, flowVersion: a.target.flowVersionNumber, flow: a.target.flow }, place.base),
  );
  return Response.json({ processes, links }, { headers: { "cache-control": "no-store" } });
});

// OPTIONS (CORS preflight) and 405 for the other methods
export const { OPTIONS, POST, PUT, PATCH, DELETE } = otherMethods(ZOgcPath, ["GET"]);
