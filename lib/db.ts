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

  constructor(why: string) {
    super(`the database pool is overloaded: ${why}`);
    this.name = "PoolOverloadedError";
  }
}

/** What `shedReason` decides from: the pool's state now and its limits. */
export interface TPoolLoad {
  /** Connections: idle ones, all of them, and the most there may be. */
  idle: number;
  total: number;
  max: number;
  /** Callers already waiting for a connection. */
  waiting: number;
  /** Recent mean time a connection is held from checkout to release, ms (0 before any). */
  holdMs: number;
  /** Most callers that may wait (`DATABASE_POOL_MAX_WAITING`). */
  maxWaiting: number;
  /** Longest expected wait a caller is admitted to (`DATABASE_POOL_MAX_WAIT_MS`), ms. */
  maxWaitMs: number;
}

/**
 * Why a caller arriving now is refused, or null when it is admitted. Admitted whenever a
 * connection is free (idle and not promised to a waiter) or may still be opened; otherwise
 * refused when `maxWaiting` callers already wait, or when its expected wait (the callers ahead
 * of it and itself, served by `max` connections each held `holdMs` on average) exceeds
 * `maxWaitMs`.
 */
export function shedReason(load: TPoolLoad): string | null {
  // pg-pool hands idle connections to waiters, and opens new ones for them, on the next tick:
  // until then those count as both free and awaited, so only the free ones beyond the waiters
  // are free for this caller.
  const ahead = load.waiting - load.idle - (load.max - load.total);
  if (ahead < 0) return null;
  if (ahead >= load.maxWaiting) return `all ${load.max} connections are busy and ${ahead} callers already wait for one`;
  const expectedMs = ((ahead + 1) * load.holdMs) / load.max;
  if (expectedMs > load.maxWaitMs) {
    return `all ${load.max} connections are busy, ${ahead} callers wait, and the next would wait about ${Math.round(expectedMs)} ms (limit ${load.maxWaitMs} ms)`;
  }
  return null;
}

/** Weight of the newest hold time in the running mean (about the last 20 holds count). */
const HOLD_SMOOTHING = 0.05;

type TConnectCallback = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * A `pg` pool that sheds load instead of queueing without bound: a caller that would have to
 * wait for a connection is refused at once with `PoolOverloadedError` when the queue is full
 * or its expected wait too long (`shedReason`), and the next `connect()` (and so the next
 * `query()`, which connects first, and every Prisma query) fails without waiting.
 *
 * Why: under a burst (1,000 concurrent requests on 20 connections) the unbounded queue made
 * the last callers wait the whole connect timeout and then fail as if the database were down
 * (503 "temporarily unavailable" after ~10 s, while the database was fine). Refusing early
 * keeps the wait of those admitted below the connect timeout and tells the others the truth:
 * the service is busy (`overloaded`, mapped by lib/database/unavailable.ts
 * `databaseAppError`), retry in a moment. The expected wait comes from the mean time
 * connections were recently held (checkout to release), so a burst of quick queries is
 * queued and served, not refused; a database that stops answering releases nothing, so its
 * callers still end at the connect timeout as "unavailable", not as "overloaded".
 */
export class BoundedPool extends pg.Pool {
  private holdMs = 0;
  private readonly acquiredAt = new WeakMap<pg.PoolClient, number>();

  /**
   * @param config the `pg` pool options (`max` is the number of connections).
   * @param limits `maxWaiting`: most callers that may wait at once (0: none); `maxWaitMs`: longest expected wait admitted, ms.
   */
  constructor(
    config: pg.PoolConfig,
    readonly limits: { maxWaiting: number; maxWaitMs: number },
  ) {
    super(config);
    this.on("acquire", (client: pg.PoolClient) => this.acquiredAt.set(client, performance.now()));
    this.on("release", (_err: Error | undefined, client: pg.PoolClient) => {
      const since = this.acquiredAt.get(client);
      if (since === undefined) return;
      this.acquiredAt.delete(client);
      const held = performance.now() - since;
      this.holdMs = this.holdMs === 0 ? held : this.holdMs + HOLD_SMOOTHING * (held - this.holdMs);
    });
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: TConnectCallback): void;
  override connect(callback?: TConnectCallback): Promise<pg.PoolClient> | void {
    const why = shedReason({
      idle: this.idleCount,
      total: this.totalCount,
      max: this.options.max ?? 10,
      waiting: this.waitingCount,
      holdMs: this.holdMs,
      ...this.limits,
    });
    if (why) {
      const err = new PoolOverloadedError(why);
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
 * The process's `pg` pool (shared with Prisma): `poolOptions`, shedding load beyond
 * `DATABASE_POOL_MAX_WAITING` waiting callers or `DATABASE_POOL_MAX_WAIT_MS` of expected wait
 * (`BoundedPool`: those callers fail at once as overloaded).
 */
export function pool(): pg.Pool {
  if (!globalForPrisma.pgPool) {
    const e = env();
    const p = new BoundedPool(
      { connectionString: e.DATABASE_URL, ...poolOptions(e) },
      { maxWaiting: e.DATABASE_POOL_MAX_WAITING, maxWaitMs: e.DATABASE_POOL_MAX_WAIT_MS },
    );
    // An idle connection that the server drops must not crash the process; the pool
    // replaces it on the next checkout.
    p.on("error", () => {});
    globalForPrisma.pgPool = p;
  }
  return globalForPrisma.pgPool;
}

/**
 * The shared client. Created on first use, so importing this module (for example while
 * `next build` collects routes) never needs a database.
 */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    const c = (globalForPrisma.prisma ??= new PrismaClient({ adapter: new PrismaPg(pool()) }));
    const value = Reflect.get(c, prop, c) as unknown;
    return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(c) : value;
  },
});

/** A transaction client as handed to `db.$transaction(async (tx) => ...)`. */
export type TTx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
