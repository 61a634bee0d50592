/** Whether a database error is a unique-key violation (Prisma P2002, Postgres 23505), so a race loses with a clear answer. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  return e?.code === "P2002" || e?.code === "23505" || /Unique constraint failed|23505/.test(e?.message ?? "");
}
