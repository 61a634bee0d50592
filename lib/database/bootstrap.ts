/**
 * Opens a database: `DATABASE_URL` when set, otherwise the embedded PostgreSQL in
 * `.data/<name>` (scripts/prepare-schema.ts then applies the migrations and the pg-boss
 * schema). Shared by `npm start`, `npm run db:migrate`, the test runner and the bench.
 */
import path from "node:path";
import pg from "pg";
import { startEmbeddedDatabase } from "@/lib/database/embedded";
import { StartupError } from "@/lib/database/startup-error";

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");
export const DATA_DIR = path.join(PROJECT_ROOT, ".data");

export interface TDatabaseHandle {
  url: string;
  embedded: boolean;
  stop: () => Promise<void>;
}

/** `url` without its password, for messages. */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(not a URL)";
  }
}

/** @throws StartupError naming the database and what to do when `url` does not answer. */
export async function checkReachable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (err) {
    const e = err as Error & { code?: string };
    throw new StartupError(
      `The database in DATABASE_URL (${redacted(url)}) cannot be used: ${e.code ? `${e.code} ` : ""}${e.message}. Start that database or fix DATABASE_URL, or unset DATABASE_URL to use the embedded one.`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Opens the configured database, starting the embedded one when `DATABASE_URL` is unset.
 * `onFatal`: the embedded database stopped and could not be restarted (default: logged).
 *
 * @throws StartupError (one sentence with the fix) for what the user can fix.
 */
export async function openDatabase(opts: {
  name: string;
  port: number;
  log: (m: string) => void;
  onFatal?: (err: StartupError) => void;
}): Promise<TDatabaseHandle> {
  const fromEnv = process.env.DATABASE_URL;
  if (fromEnv) {
    await checkReachable(fromEnv);
    return { url: fromEnv, embedded: false, stop: async () => {} };
  }
  opts.log(`starting embedded PostgreSQL (.data/${opts.name}, port ${opts.port})`);
  const embedded = await startEmbeddedDatabase({
    dir: path.join(DATA_DIR, opts.name),
    port: opts.port,
    database: "flowapi",
    log: opts.log,
    serverLog: (line) => {
      if (/ERROR|FATAL|PANIC/.test(line)) opts.log(`[postgres] ${line}`);
    },
    onFatal: opts.onFatal,
  });
  return { url: embedded.url, embedded: true, stop: embedded.stop };
}
