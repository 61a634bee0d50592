/**
 * The one Prisma client of a process (Prisma 7, `prisma-client` generator, PrismaPg driver
 * adapter) and the one `pg` pool under it. Cached on `globalThis` so Next.js dev reloads do
 * not open new pools.
 *
 * `pool()` exposes that same pool for the few hot paths where Prisma's interactive
 * transactions cost too much (accepting a run: 710 vs 1,965 transactions/s at 32
 * connections, measured here); everything else uses `db`.
 */
import "server-only";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient; pgPool?: pg.Pool };

/**
 * Pool options. A database that is down or unreachable must never make a request hang:
 * opening a connection gives up after `connectionTimeoutMillis` (the error is then mapped
 * to 503 by lib/http/public-route.ts via lib/database/unavailable.ts), and idle connections are dropped after 30 s so a
 * restarted database is picked up with fresh connections.
 */
export const POOL_OPTIONS = {
  max: 20,
  connectionTimeoutMillis: 5_000,
  idleTimeoutMillis: 30_000,
  // Our TIMESTAMP(3) columns hold UTC (Prisma's convention). Pinning the session time zone
  // makes `now()` and column defaults in raw SQL write UTC too, whatever the server's zone.
  options: "-c TimeZone=UTC",
} as const;

/** The process's `pg` pool (shared with Prisma). */
export function pool(): pg.Pool {
  if (!globalForPrisma.pgPool) {
    const p = new pg.Pool({ connectionString: env().DATABASE_URL, ...POOL_OPTIONS });
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
