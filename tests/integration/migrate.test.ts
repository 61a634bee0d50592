/**
 * The migration runner against the real test database: records match Prisma's
 * `_prisma_migrations` format and checksums, re-running applies nothing, and concurrent
 * runners serialise on the advisory lock.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { migrate, readMigrations } from "@/lib/database/migrate";
import { sql } from "./helpers";

const DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");

describe("migration runner", () => {
  it("recorded every migration with Prisma's checksum", async () => {
    const files = readMigrations(DIR);
    expect(files.length).toBeGreaterThan(0);
    const { rows } = await sql().query(`SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`);
    expect(rows.map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
    for (const [i, r] of rows.entries()) {
      expect(r.checksum).toBe(files[i]!.checksum);
      expect(r.finished_at).not.toBeNull();
      expect(r.applied_steps_count).toBe(1);
    }
  });

  it("applies nothing when up to date, even with several runners at once", async () => {
    const results = await Promise.all([1, 2, 3].map(() => migrate(process.env.DATABASE_URL!, DIR)));
    expect(results).toEqual([[], [], []]);
  });
});
