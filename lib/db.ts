/**
 * The one Prisma client of a process (Prisma 7, `prisma-client` generator, PrismaPg driver
 * adapter) and the one `pg` pool under it. Cached on `globalThis` so Next.js dev reloads do
 * not open new pools.
 *
 * `pool()` exposes that same pool for the few hot paths where Prisma's interactive
 * transactions cost too much (accepting a run: 710 vs 1,965 transactions/s at 32
 * connections, measured here); everything else uses `db`.
 *
 * Timeouts and the bounded queue of callers waiting for a connection: see `poolOptions` and
 * `BoundedPool` below.
 */
import "server-only";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env, type TEnv } from "@/lib/env";

/** The `code` of `PoolOverloadedError`; Prisma copies it onto the error it throws. */
export const POOL_OVERLOADED_CODE = "POOL_OVERLOADED";

export class PoolOverloadedError extends Error {
  readonly code = POOL_OVERLOADED_CODE;

  constructor(waiting: number, size: number) {
    super(`all ${size} database connections are busy and ${waiting} callers already wait for one`);
    this.name = "PoolOverloadedError";
  }
}

type TConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * A `pg` pool whose queue of callers waiting for a connection is bounded: when every
 * connection is busy and `maxWaiting` callers already wait, the next `connect()` (and so the
 * next `query()`, which connects first, and every Prisma query) fails at once with
 * `PoolOverloadedError` instead of queueing behind them until the connect timeout.
 *
 * Why: under a burst (1,000 concurrent requests on 20 connections) an unbounded queue made
 * the last callers wait the whole connect timeout and then fail as if the database were down
 * (503 "temporarily unavailable" after ~10 s, while the database was fine). Refusing early
 * keeps the wait of those admitted short and tells the others the truth: the service is busy
 * (`overloaded`, mapped by lib/database/unavailable.ts `databaseAppError`), retry in a moment.
 * The bound is on waiters, not on connections: a pool that has an idle connection, or room to
 * open one, admits every caller.
 */
export class BoundedPool extends pg.Pool {
  /**
   * @param config the `pg` pool options (`max` is the number of connections).
   * @param maxWaiting most callers that may wait for a connection at once (0: none may wait).
   */
  constructor(
    config: pg.PoolConfig,
    readonly maxWaiting: number,
  ) {
    super(config);
  }

  /** True when a caller now would have to wait and the queue is full. */
  private full(): boolean {
    return this.idleCount === 0 && this.totalCount >= (this.options.max ?? 10) && this.waitingCount >= this.maxWaiting;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: TConnectCallback): void;
  override connect(callback?: TConnectCallback): Promise<pg.PoolClient> | void {
    if (this.full()) {
      const err = new PoolOverloadedError(this.waitingCount, this.options.max ?? 10);
      if (!callback) return Promise.reject(err);
      process.nextTick(() => callback(err, undefined, () => {}));
      return;
    }
    // pg.Pool's own query() calls connect(callback): both forms go through here.
    return callback ? super.connect(callback as Parameters<pg.Pool["connect"]>[0]) : super.connect();
  }
}

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient; pgPool?: BoundedPool };

/** How much longer than the server's `statement_timeout` the client waits for an answer, ms. */
export const CLIENT_TIMEOUT_MARGIN_MS = 2_000;

/**
 * Pool options. A database that is down, unreachable or stopped must never make a request
 * hang, so every wait has a limit (each configurable in lib/env.ts):
 * - opening a connection, or waiting for a busy pool's next free one: `connectionTimeoutMillis`;
 * - one statement, on the server: `statement_timeout`, and a session idle inside a transaction
 *   is ended by `idle_in_transaction_session_timeout` (both sent in the connection's start-up
 *   packet, so they hold for every statement of every connection, Prisma's and raw `pg`'s);
 * - one statement, on the client: `query_timeout`, for a server that does not answer at all
 *   (stopped with SIGSTOP, network gone), which cannot cancel anything itself; a little longer
 *   than the server's, so that a slow statement normally ends with the server's clean cancel.
 * The errors are mapped to 503 with `Retry-After` by lib/database/unavailable.ts. Idle
 * connections are dropped after 30 s so a restarted database is picked up with fresh ones.
 */
export function poolOptions(
  e: Pick<TEnv, "DATABASE_POOL_SIZE" | "DATABASE_CONNECT_TIMEOUT_MS" | "DATABASE_STATEMENT_TIMEOUT_MS" | "DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS">,
) {
  return {
    max: e.DATABASE_POOL_SIZE,
    connectionTimeoutMillis: e.DATABASE_CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    statement_timeout: e.DATABASE_STATEMENT_TIMEOUT_MS,
    idle_in_transaction_session_timeout: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    query_timeout: e.DATABASE_STATEMENT_TIMEOUT_MS + CLIENT_TIMEOUT_MARGIN_MS,
    // Our TIMESTAMP(3) columns hold UTC (Prisma's convention). Pinning the session time zone
    // makes `now()` and column defaults in raw SQL write UTC too, whatever the server's zone.
    options: "-c TimeZone=UTC",
  } satisfies pg.PoolConfig;
}

/**
 * The process's `pg` pool (shared with Prisma): `poolOptions`, and at most
 * `DATABASE_POOL_MAX_WAITING` callers waiting for a connection (`BoundedPool`:
 * more fail at once as overloaded).
 */
export function pool(): pg.Pool {
  if (!globalForPrisma.pgPool) {
    const e = env();
    const p = new BoundedPool({ connectionString: e.DATABASE_URL, ...poolOptions(e) }, e.DATABASE_POOL_MAX_WAITING);
    // An idle connection that the server drops must not crash the process; the pool
    // replaces it on the next checkout.
    p.on("error", () => {});
    globalForPrisma.pgPool = p;
  }
  return globalForPrisma.pgPool;
}

function createClient(): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg(pool()) });
}

function client(): PrismaClient {
  if (!globalForPrisma.prisma) globalForPrisma.prisma = createClient();
  return globalForPrisma.prisma;
}

/**
 * The shared client. Created on first use, so importing this module (for example while
 * `next build` collects routes) never needs a database.
 */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    const c = client();
    const value = Reflect.get(c, prop, c) as unknown;
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(c) : value;
  },
});

/** A transaction client as handed to `db.$transaction(async (tx) => ...)`. */
export type TTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
