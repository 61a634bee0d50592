/**
 * Is this error "the database is not reachable, not ready or not answering in time" (worth a
 * 503 and a retry) rather than a bug? Decided from error codes first: Node socket codes
 * (ECONNREFUSED, ...), PostgreSQL SQLSTATEs (class 08 connection exceptions, 57P01-57P03
 * shutdown/start-up, 53300 too many connections, 57014 a statement cancelled by
 * `statement_timeout`, 25P03 a session ended by `idle_in_transaction_session_timeout`, 42P01 a
 * missing relation when migrations did not run) and Prisma's codes (P1001/P1002/P1017
 * unreachable, P2021/P2022 missing table/column, P2028 an interactive transaction that could
 * not start or finish in its time: measured when the database stopped answering), found
 * anywhere in the `cause` chain or in Prisma's driver-adapter metadata.
 *
 * Some failures carry no code at all ("Connection terminated unexpectedly", pool connect
 * time-outs, the client-side `query_timeout` "Query read timeout", a connection the server
 * ended) or only a generic one (55000 for a database that refuses connections); for those
 * alone the message is consulted, as the last resort. The worker's classification of run
 * failures (lib/runs/classify-failure.ts) uses this only to decide "retry later".
 *
 * A busy pool that refused a caller at once (`BoundedPool` in lib/db.ts) is not an outage:
 * `isDatabaseOverloaded`. `databaseAppError` turns either into the AppError each front door
 * answers (503 `service_unavailable` or `overloaded`, both with `Retry-After`).
 */
import { AppError } from "@/lib/errors/app-error";
import { POOL_OVERLOADED_CODE } from "@/lib/db";

/** Node socket codes, PostgreSQL SQLSTATEs (class 08 is matched by prefix) and Prisma codes (see module doc). */
const SOCKET_CODES = ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"];
const SQLSTATES = ["57P01", "57P02", "57P03", "53300", "57014", "25P03", "42P01"];
const PRISMA_CODES = ["P1001", "P1002", "P1017", "P2021", "P2022", "P2028"];
const CODES = new Set([...SOCKET_CODES, ...SQLSTATES, ...PRISMA_CODES]);
const CODELESS_DRIVER_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|has encountered a connection error and is not queryable|Can't reach database|the database system is (starting up|shutting down)|is not currently accepting connections/i;

function codesOf(err: unknown, depth = 0): string[] {
  if (!err || typeof err !== "object" || depth > 5) return [];
  const e = err as { code?: unknown; errno?: unknown; originalCode?: unknown; cause?: unknown; meta?: { driverAdapterError?: { cause?: unknown } } };
  const own = [e.code, e.originalCode].filter((c): c is string => typeof c === "string");
  return [...own, ...codesOf(e.cause, depth + 1), ...codesOf(e.meta?.driverAdapterError?.cause, depth + 1)];
}

/** True when the pool refused the caller because too many already wait for a connection. */
export function isDatabaseOverloaded(err: unknown): boolean {
  return codesOf(err).includes(POOL_OVERLOADED_CODE);
}

export function isDatabaseUnavailable(err: unknown): boolean {
  if ((err as Error | undefined)?.name === "PrismaClientInitializationError") return true;
  const codes = codesOf(err);
  if (codes.some((c) => CODES.has(c) || c.startsWith("08"))) return true;
  const messages = [(err as Error | undefined)?.message, ((err as { cause?: Error } | undefined)?.cause as Error | undefined)?.message];
  return messages.some((m) => typeof m === "string" && CODELESS_DRIVER_MESSAGES.test(m));
}

/** Seconds a caller refused as overloaded is asked to wait: a burst is usually over by then. */
export const OVERLOADED_RETRY_AFTER_SECONDS = 2;
/** Seconds a caller is asked to wait when the database does not answer (a restart takes 1-2 s). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * The AppError a front door answers for a database failure: `overloaded` when the pool refused
 * the caller at once, `service_unavailable` when the database is unreachable, not ready or did
 * not answer in time; null for any other error (a bug: logged and answered 500).
 */
export function databaseAppError(err: unknown): AppError | null {
  if (isDatabaseOverloaded(err)) {
    return new AppError("overloaded", "The service has more requests in progress than it can take right now; retry after the time in Retry-After.", {
      retryAfterSeconds: OVERLOADED_RETRY_AFTER_SECONDS,
      cause: err,
    });
  }
  if (isDatabaseUnavailable(err)) {
    return new AppError("service_unavailable", "The service is temporarily unavailable; retry shortly.", {
      retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
      cause: err,
    });
  }
  return null;
}
