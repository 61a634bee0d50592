/**
 * `GET /runs` (beyond the spec): the runs visible to the scope (a consumer's runs of one
 * API in one environment, or a designer's Try-it runs), newest first, optionally filtered by `state`, paged by an opaque cursor.
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
import { validationError, type TFieldError } from "@/lib/errors";
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, runDocument, type TRunLinks, type TRunList } from "@/lib/runs/run-document";
import { RUN_STATES } from "@/lib/runs/run-state-names";
import { visibleRunsWhere } from "@/lib/runs/get-run-or-throw";
import type { TRunScope } from "@/lib/runs/scope";

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
      const message = name === "state" ? `Use one of: ${RUN_STATES.join(", ")}.` : name === "limit" ? `Use an integer from 1 to ${LIST_LIMIT_MAX}.` : i.message;
      errors.push({ field: `/query/${name}`, code: "invalid", message });
    }
  }
  let cursor: TCursor | null = null;
  if (r.success && r.data.cursor !== undefined) {
    cursor = decodeCursor(r.data.cursor);
    if (!cursor) errors.push({ field: "/query/cursor", code: "invalid", message: "Pass the next_cursor of a previous page unchanged." });
  }
  if (errors.length || !r.success) throw validationError(errors, "The query string is invalid; see errors.");
  return { state: r.data.state, limit: r.data.limit ?? LIST_LIMIT_DEFAULT, cursor };
}

/** One page of the runs `scope` sees (see module doc), as documents linked under `links`. */
export async function listRuns(scope: TRunScope, links: TRunLinks, query: ReturnType<typeof parseListQuery>): Promise<TRunList> {
  const after = query.cursor
    ? { OR: [{ createdAt: { lt: new Date(query.cursor.c) } }, { createdAt: new Date(query.cursor.c), id: { lt: query.cursor.i } }] }
    : {};
  const rows = await db.run.findMany({
    where: {
      ...visibleRunsWhere(scope),
      ...(query.state ? { state: query.state } : {}),
      ...after,
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit + 1,
    include: { flowVersion: { select: { version: true } } },
  });
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    runs: page.map((r) => runDocument(r, links, r.flowVersion?.version ?? 0, { withResults: false })),
    next_cursor: rows.length > query.limit && last ? encodeCursor({ c: last.createdAt.toISOString(), i: last.id }) : null,
  };
}
