/**
 * `GET /runs` (beyond the spec): the runs visible to the scope (a consumer's runs of one
 * API in one environment, or a designer's Try-it runs), newest first, optionally filtered by `state`, paged by an opaque cursor.
 *
 * Query: `state` (one of the run states), `limit` (integer 1..100, default 20), `cursor`
 * (the `next_cursor` of the previous page), parsed by `ZListRunsQuery`.
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
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, runDocument, type TRunLinks, type TRunList } from "@/lib/runs/run-document";
import { RUN_STATES } from "@/lib/runs/run-state-names";
import { visibleRunsWhere } from "@/lib/runs/get-run-or-throw";
import type { TRunScope } from "@/lib/runs/scope";

const ZCursor = z.object({ c: z.iso.datetime(), i: z.uuid() });
type TCursor = z.infer<typeof ZCursor>;

/** The query of a run list; faults name the parameter (`/state`, `/limit`, `/cursor`; the HTTP door writes `/query/...`). */
export const ZListRunsQuery = z.object({
  state: z.enum(RUN_STATES, `Use one of: ${RUN_STATES.join(", ")}.`).optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `Use an integer from 1 to ${LIST_LIMIT_MAX}.`)
    .transform(Number)
    .pipe(z.number().int().min(1, `Use an integer from 1 to ${LIST_LIMIT_MAX}.`).max(LIST_LIMIT_MAX, `Use an integer from 1 to ${LIST_LIMIT_MAX}.`))
    .default(LIST_LIMIT_DEFAULT),
  cursor: z
    .string()
    .max(200)
    .transform((s, ctx) => decodeCursor(s) ?? (ctx.addIssue({ code: "custom", message: "Pass the next_cursor of a previous page unchanged." }), z.NEVER))
    .optional(),
});

export type TListRunsQuery = z.output<typeof ZListRunsQuery>;

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

/**
 * Keyset paging (see module doc) shared by every run list: the `where` part that starts after
 * `cursor`, the rows to fetch (one more than `limit`, to know whether a next page exists), and
 * the page of what was fetched with the cursor of the page after it.
 */
export function keysetPage(query: { limit: number; cursor?: TCursor }) {
  const c = query.cursor;
  return {
    after: c ? { OR: [{ createdAt: { lt: new Date(c.c) } }, { createdAt: new Date(c.c), id: { lt: c.i } }] } : {},
    orderBy: [{ createdAt: "desc" as const }, { id: "desc" as const }],
    take: query.limit + 1,
    page<R extends { createdAt: Date; id: string }>(rows: R[]): { page: R[]; nextCursor: string | null } {
      const page = rows.slice(0, query.limit);
      const last = page[page.length - 1];
      return { page, nextCursor: rows.length > query.limit && last ? encodeCursor({ c: last.createdAt.toISOString(), i: last.id }) : null };
    },
  };
}

/** One page of the runs `scope` sees (see module doc), as documents linked under `links`. */
export async function listRuns(scope: TRunScope, links: TRunLinks, query: TListRunsQuery): Promise<TRunList> {
  const keyset = keysetPage(query);
  const rows = await db.run.findMany({
    where: { ...visibleRunsWhere(scope), state: query.state, ...keyset.after },
    orderBy: keyset.orderBy,
    take: keyset.take,
    include: { flowVersion: { select: { version: true } } },
  });
  const { page, nextCursor } = keyset.page(rows);
  return {
    runs: page.map((r) => runDocument(r, links, r.flowVersion?.version ?? 0)),
    next_cursor: nextCursor,
  };
}
