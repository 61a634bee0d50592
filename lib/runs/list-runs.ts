/**
 * `GET /runs` (beyond the spec): the calling consumer's runs of this API in this
 * environment, newest first, optionally filtered by `state`, paged by an opaque cursor.
 *
 * Query: `state` (one of the run states), `limit` (integer 1..100, default 20), `cursor`
 * (the `next_cursor` of the previous page). Any bad value: 422 naming it by JSON Pointer
 * (`/query/state`, `/query/limit`, `/query/cursor`).
 * Answer: `{ runs: [run document without results], next_cursor: string | null }` and, when
 * there is a next page, `Link: <...>; rel="next"` (RFC 8288).
 *
 * Paging is keyset paging on (created_at, run_id) descending, so runs started while a client
 * pages never shift or repeat entries. The cursor is base64url of `{"c": created_at ISO,
 * "i": run_id}`; clients must treat it as opaque.
 */
import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { ApiError, type TFieldError } from "@/lib/api/errors";
import type { TCaller } from "@/lib/api/resolve-caller";
import { apiBasePath, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, RUN_STATES, runDocument, type TRunDocument } from "@/lib/runs/run-document";

const ZCursor = z.object({ c: z.iso.datetime(), i: z.uuid() });
type TCursor = z.infer<typeof ZCursor>;

export const ZListRunsQuery = z.object({
  state: z.enum(RUN_STATES).optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, "must be an integer")
    .transform(Number)
    .pipe(z.number().int().min(1).max(LIST_LIMIT_MAX))
    .optional(),
  cursor: z.string().max(200).optional(),
});

export interface TRunList {
  runs: TRunDocument[];
  next_cursor: string | null;
}

export function encodeCursor(c: TCursor): string {
  return Buffer.from(JSON.stringify(c), "utf8").toString("base64url");
}

export function decodeCursor(s: string): TCursor | null {
  try {
    const r = ZCursor.safeParse(JSON.parse(Buffer.from(s, "base64url").toString("utf8")));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/** Parses the query string; throws 422 naming each bad parameter. */
export function parseListQuery(search: URLSearchParams): { state?: (typeof RUN_STATES)[number]; limit: number; cursor: TCursor | null } {
  const raw: Record<string, string> = {};
  for (const k of ["state", "limit", "cursor"]) {
    const v = search.get(k);
    if (v !== null) raw[k] = v;
  }
  const r = ZListRunsQuery.safeParse(raw);
  const errors: TFieldError[] = [];
  if (!r.success) {
    for (const i of r.error.issues) {
      const name = String(i.path[0]);
      const message =
        name === "state" ? `Use one of: ${RUN_STATES.join(", ")}.` : name === "limit" ? `Use an integer from 1 to ${LIST_LIMIT_MAX}.` : i.message;
      errors.push({ field: `/query/${name}`, code: "invalid", message });
    }
  }
  let cursor: TCursor | null = null;
  if (r.success && r.data.cursor !== undefined) {
    cursor = decodeCursor(r.data.cursor);
    if (!cursor) errors.push({ field: "/query/cursor", code: "invalid", message: "Pass the next_cursor of a previous page unchanged." });
  }
  if (errors.length || !r.success) throw new ApiError("validation_failed", "The query string is invalid; see errors.", { errors });
  return { state: r.data.state, limit: r.data.limit ?? LIST_LIMIT_DEFAULT, cursor };
}

/** One page of the caller's runs (see module doc). */
export async function listRuns(
  caller: TCaller,
  path: { organization: string; environment: string; api: string },
  query: ReturnType<typeof parseListQuery>,
): Promise<TRunList> {
  const after = query.cursor
    ? { OR: [{ createdAt: { lt: new Date(query.cursor.c) } }, { createdAt: new Date(query.cursor.c), id: { lt: query.cursor.i } }] }
    : {};
  const rows = await db.run.findMany({
    where: {
      consumerId: caller.consumerId,
      flowApiId: caller.flowApiId,
      environmentId: caller.environmentId,
      ...(query.state ? { state: query.state } : {}),
      ...after,
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
    include: { flowVersion: { select: { version: true } } },
  });
  const page = rows.slice(0, query.limit);
  const base = apiBasePath(path);
  const last = page[page.length - 1];
  return {
    runs: page.map((r) => runDocument(r, base, { slug: caller.apiSlug, flowVersion: r.flowVersion.version }, { withResults: false })),
    next_cursor: rows.length > query.limit && last ? encodeCursor({ c: last.createdAt.toISOString(), i: last.id }) : null,
  };
}

/** `Link` header value for the next page, or null. */
export function nextLink(base: string, query: ReturnType<typeof parseListQuery>, nextCursor: string | null): string | null {
  if (!nextCursor) return null;
  const q = new URLSearchParams();
  if (query.state) q.set("state", query.state);
  q.set("limit", String(query.limit));
  q.set("cursor", nextCursor);
  return `<${base}/runs?${q.toString()}>; rel="next"`;
}
