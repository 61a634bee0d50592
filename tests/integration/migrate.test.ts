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

  it("moves an OGC run's transmission modes from its subscriber to its ogcAnswer (20270114000000_ogc_answer)", async () => {
    // The migration's data step, replayed on rows shaped as before it, in a transaction rolled back.
    const text = readMigrations(DIR).find((f) => f.name === "20270114000000_ogc_answer")!.sql;
    const backfill = text.slice(text.indexOf("UPDATE"));
    const client = await sql().connect();
    try {
      await client.query("BEGIN");
      const { rows: ws } = await client.query(`SELECT "id" FROM "workspace" LIMIT 1`);
      const insert = (subscriber: object) =>
        client.query(
          `INSERT INTO "run" ("id", "mode", "workspaceId", "requestFingerprint", "formats", "flowDocument", "subscriber")
           VALUES (gen_random_uuid(), 'api', $1, 'f', '{}', '{}', $2::jsonb) RETURNING "id"`,
          [ws[0].id, JSON.stringify(subscriber)],
        );
      const uris = { successUri: "https://example.org/done" };
      const ogc = (await insert({ ...uris, door: "ogc", base: "https://h/b", origin: "https://h", transmission: { out: "reference" } })).rows[0].id;
      const http = (await insert({ ...uris, door: "http" })).rows[0].id;
      await client.query(backfill);
      const { rows } = await client.query(`SELECT "id", "subscriber", "ogcAnswer" FROM "run" WHERE "id" = ANY($1::uuid[])`, [[ogc, http]]);
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(ogc)).toMatchObject({
        subscriber: { ...uris, door: "ogc", base: "https://h/b", origin: "https://h" },
        ogcAnswer: { transmission: { out: "reference" } },
      });
      expect(byId.get(ogc).subscriber.transmission).toBeUndefined();
      expect(byId.get(http)).toMatchObject({ subscriber: { ...uris, door: "http" }, ogcAnswer: null });
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
  });

  it("applies nothing when up to date, even with several runners at once", async () => {
    const results = await Promise.all([1, 2, 3].map(() => migrate(process.env.DATABASE_URL!, DIR)));
    expect(results).toEqual([[], [], []]);
  });
});
