/**
 * The process's pg-boss instance (pg-boss 12, on the same Postgres as the app, schema
 * `pgboss`) and `enqueue()`, which creates a job inside a Prisma transaction through
 * pg-boss's Prisma adapter, so a job exists exactly when the row it refers to does.
 */
import "server-only";
import { PgBoss, fromPrisma } from "pg-boss";
import type { PoolClient } from "pg";
import { env } from "@/lib/env";
import type { TTx } from "@/lib/db";
import { JOB_NAMES, jobs, type TJobData, type TJobName } from "@/lib/jobs/registry";

const globalForBoss = globalThis as unknown as { boss?: Promise<PgBoss> };

/**
 * Creates the pg-boss schema (if missing) and every queue of the registry, plus the cron
 * schedules. Idempotent; called at start-up and by `npm run db:migrate`.
 */
export async function ensureJobSchema(databaseUrl: string): Promise<void> {
  const boss = new PgBoss({ connectionString: databaseUrl, supervise: false, schedule: false, max: 2 });
  boss.on("error", () => {});
  await boss.start();
  try {
    // Dead-letter queues first: a queue may only name an existing one.
    const names = [...JOB_NAMES].sort((a, b) => Number(!!jobs[a].queue.deadLetter) - Number(!!jobs[b].queue.deadLetter));
    for (const name of names) {
      const def = jobs[name];
      await boss.createQueue(name, def.queue);
      // heartbeatSeconds cannot be changed on an existing queue; jobs carry it themselves.
      const { heartbeatSeconds: _fixed, ...updatable } = def.queue;
      await boss.updateQueue(name, updatable);
      if (def.cron) await boss.schedule(name, def.cron, {}, { tz: "UTC" });
    }
  } finally {
    await boss.stop({ graceful: false, close: true });
  }
}

/**
 * Enqueues job `name` with `data` (validated against its schema) inside a transaction:
 * a Prisma transaction client, or a raw `pg` client that is inside BEGIN.
 */
export async function enqueue<N extends TJobName>(
  tx: TTx | PoolClient,
  name: N,
  data: TJobData<N>,
  opts: { singletonKey?: string } = {},
): Promise<string | null> {
  const payload = jobs[name].schema.parse(data) as object;
  // A started pg-boss instance of this process that only sends (no maintenance, no scheduling).
  globalForBoss.boss ??= (async () => {
    const boss = new PgBoss({ connectionString: env().DATABASE_URL, supervise: false, schedule: false, migrate: false, max: 2 });
    boss.on("error", (err) => console.error("pg-boss:", err));
    await boss.start();
    return boss;
  })();
  const boss = await globalForBoss.boss;
  const client = tx as PoolClient;
  const db =
    typeof client.query === "function"
      ? { executeSql: async (text: string, values?: unknown[]) => ({ rows: (await client.query(text, values)).rows }) }
      : fromPrisma(tx as TTx);
  const { notify: _notify, ...jobOptions } = jobs[name].queue as (typeof jobs)[N]["queue"] & { notify?: boolean };
  return boss.send(name as string, payload, { ...jobOptions, ...opts, db });
}
