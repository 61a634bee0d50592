/**
 * Brings a database to a usable state: `DATABASE_URL` when set, otherwise the embedded
 * PostgreSQL in `.data/<name>`; then the SQL migrations and the pg-boss schema/queues.
 * Shared by `npm start`, `npm run db:migrate` and the test runner.
 */
import path from "node:path";
import { startEmbeddedDatabase } from "@/lib/database/embedded";
import { migrate } from "@/lib/database/migrate";

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");
export const DATA_DIR = path.join(PROJECT_ROOT, ".data");

export interface TDatabaseHandle {
  url: string;
  embedded: boolean;
  stop: () => Promise<void>;
}

/** Opens the configured database, starting the embedded one when `DATABASE_URL` is unset. */
export async function openDatabase(opts: { name: string; port: number; log: (m: string) => void }): Promise<TDatabaseHandle> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) return { url: fromEnv, embedded: false, stop: async () => {} };
  opts.log(`starting embedded PostgreSQL (.data/${opts.name}, port ${opts.port})`);
  const pg = await startEmbeddedDatabase({
    dir: path.join(DATA_DIR, opts.name),
    port: opts.port,
    database: "flowapi",
    log: (line) => {
      if (/ERROR|FATAL|PANIC/.test(line)) opts.log(`[postgres] ${line}`);
    },
  });
  return { url: pg.url, embedded: true, stop: pg.stop };
}

/** Applies migrations and prepares the job queues. */
export async function prepareSchema(url: string, log: (m: string) => void): Promise<void> {
  const applied = await migrate(url, path.join(PROJECT_ROOT, "prisma/migrations"), log);
  if (applied.length === 0) log("database schema is up to date");
  // Imported here so that `migrate` alone never loads pg-boss or the app's env.
  const { ensureJobSchema } = await import("@/lib/jobs/boss");
  await ensureJobSchema(url);
}
