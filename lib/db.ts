/**
 * The one Prisma client of a process (Prisma 7, `prisma-client` generator, PrismaPg driver
 * adapter). Cached on `globalThis` so Next.js dev reloads do not open new pools.
 */
import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

function createClient(): PrismaClient {
  const adapter = new PrismaPg({ connectionString: env().DATABASE_URL, max: 10 });
  return new PrismaClient({ adapter });
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
