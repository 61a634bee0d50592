/**
 * Applies the SQL migrations in `prisma/migrations/<timestamp>_<name>/migration.sql`
 * (Prisma Migrate's layout) and records them in `_prisma_migrations` exactly as
 * `prisma migrate deploy` does (same table, SHA-256 checksum of the file), so both tools
 * agree about what is applied. We need our own runner because `prisma migrate` requires a
 * native schema engine that cannot be downloaded on our machines.
 *
 * Concurrency: the whole run holds the same session advisory lock Prisma Migrate uses
 * (72707369), so two processes starting at once apply each migration once.
 * Atomicity: each migration runs in its own transaction together with its record.
 */
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

const PRISMA_ADVISORY_LOCK = 72707369;

const CREATE_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

/** Lists migrations in name (= timestamp) order with their SHA-256 checksums. */
export function readMigrations(dir: string) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const bytes = fs.readFileSync(path.join(dir, name, "migration.sql"));
      return { name, sql: bytes.toString("utf8"), checksum: createHash("sha256").update(bytes).digest("hex") };
    });
}

/**
 * Applies every pending migration. Returns the names applied.
 *
 * @throws if an applied migration's file changed (checksum mismatch), if an earlier
 *   attempt failed half-way (a record without `finished_at`), or if a migration's SQL fails
 *   (that migration is rolled back; earlier ones stay applied).
 */
export async function migrate(databaseUrl: string, dir: string, log: (m: string) => void = () => {}): Promise<string[]> {
  const files = readMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_ADVISORY_LOCK]);
    await client.query(CREATE_TABLE);
    const { rows } = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`,
    );
    const done = new Map(rows.filter((r) => r.rolled_back_at === null).map((r) => [r.migration_name, r]));
    for (const file of files) {
      const record = done.get(file.name);
      if (record) {
        if (record.finished_at === null) {
          throw new Error(`Migration ${file.name} failed earlier and was not resolved; fix the database, then delete its row from _prisma_migrations.`);
        }
        if (record.checksum !== file.checksum) {
          throw new Error(`Migration ${file.name} was changed after it was applied (checksum mismatch).`);
        }
        continue;
      }
      await client.query("BEGIN");
      try {
        const id = randomUUID();
        await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`, [
          id,
          file.checksum,
          file.name,
        ]);
        await client.query(file.sql);
        await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK");
        throw new Error(`Migration ${file.name} failed: ${(err as Error).message}`);
      }
      applied.push(file.name);
      log(`applied migration ${file.name}`);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_ADVISORY_LOCK]).catch(() => {});
    await client.end();
  }
  return applied;
}
