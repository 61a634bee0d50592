/**
 * Is this error "the database is not reachable or not ready" (worth a 503 and a retry)
 * rather than a bug? Decided from error codes first: Node socket codes (ECONNREFUSED, ...),
 * PostgreSQL SQLSTATEs (class 08 connection exceptions, 57P01-57P03 shutdown/start-up,
 * 53300 too many connections, 42P01 a missing relation when migrations did not run) and
 * Prisma's codes (P1001/P1002/P1017 unreachable, P2021/P2022 missing table/column), found
 * anywhere in the `cause` chain or in Prisma's driver-adapter metadata.
 *
 * Some failures carry no code at all ("Connection terminated unexpectedly", pool connect
 * time-outs) or only a generic one (55000 for a database that refuses connections); for
 * those alone the message is consulted, as the last resort. The worker's classification of
 * run failures (lib/runs/classify-failure.ts) uses this only to decide "retry later".
 */
const CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "42P01",
  "P1001",
  "P1002",
  "P1017",
  "P2021",
  "P2022",
]);
const CODELESS_DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Can't reach database|the database system is (starting up|shutting down)|is not currently accepting connections/i;

function codesOf(err: unknown, depth = 0): string[] {
  if (!err || typeof err !== "object" || depth > 5) return [];
  const e = err as { code?: unknown; errno?: unknown; originalCode?: unknown; cause?: unknown; meta?: { driverAdapterError?: { cause?: unknown } } };
  const own = [e.code, e.originalCode].filter((c): c is string => typeof c === "string");
  return [...own, ...codesOf(e.cause, depth + 1), ...codesOf(e.meta?.driverAdapterError?.cause, depth + 1)];
}

export function isDatabaseUnavailable(err: unknown): boolean {
  if ((err as Error | undefined)?.name === "PrismaClientInitializationError") return true;
  const codes = codesOf(err);
  if (codes.some((c) => CODES.has(c) || c.startsWith("08"))) return true;
  const messages = [(err as Error | undefined)?.message, ((err as { cause?: Error } | undefined)?.cause as Error | undefined)?.message];
  return messages.some((m) => typeof m === "string" && CODELESS_DRIVER_MESSAGES.test(m));
}
