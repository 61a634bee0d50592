/**
 * Migration 20270105000000_workspace_layer_ids on a database holding layers: in a fresh
 * database of the test server, the migrations before it are applied, layers, readable layers
 * and a legacy layer row are written, then the migration: every row is kept, named by
 * (workspace, id), and a second workspace may then use the same id.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { migrate } from "@/lib/database/migrate";
import { sql } from "./helpers";
import { suffix } from "./contract-helpers";

const DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");
const MIGRATION = "20270105000000_workspace_layer_ids";
const database = `migrate_layers_${suffix()}`;

afterAll(async () => {
  await sql().query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
});

/** A directory with the migrations up to (and without) `MIGRATION`, or with it too. */
function migrationsDir(withIt: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  for (const name of fs.readdirSync(DIR)) {
    if (!fs.statSync(path.join(DIR, name)).isDirectory()) continue;
    if (name > MIGRATION || (name === MIGRATION && !withIt)) continue;
    fs.cpSync(path.join(DIR, name), path.join(dir, name), { recursive: true });
  }
  return dir;
}

describe(`migration ${MIGRATION}`, () => {
  it("keeps every layer and readable layer, now named by (workspace, id)", async () => {
    await sql().query(`CREATE DATABASE ${database}`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${database}`;
    await migrate(url.toString(), migrationsDir(false));
    const db = new pg.Client({ connectionString: url.toString() });
    await db.connect();
    try {
      const q = async (text: string, params: unknown[] = []) => (await db.query(text, params)).rows;
      const [org] = await q(`INSERT INTO organization (id, slug, name) VALUES (gen_random_uuid(), 'o', 'O') RETURNING id`);
      await q(`INSERT INTO plan (id, name, "maxFlowApis") VALUES ('p', 'P', 1)`);
      const [w1] = await q(`INSERT INTO workspace (id, "organizationId", slug, name, "planId") VALUES (gen_random_uuid(), $1, 'w1', 'W1', 'p') RETURNING id`, [
        org.id,
      ]);
      const [w2] = await q(`INSERT INTO workspace (id, "organizationId", slug, name, "planId") VALUES (gen_random_uuid(), $1, 'w2', 'W2', 'p') RETURNING id`, [
        org.id,
      ]);
      const [env] = await q(`INSERT INTO environment (id, "organizationId", slug, name) VALUES (gen_random_uuid(), $1, 'production', 'P') RETURNING id`, [
        org.id,
      ]);
      for (const [id, ws] of [
        ["stores", w1.id],
        ["lakes", w2.id],
      ])
        await q(`INSERT INTO layer (id, "workspaceId", name, kind, "updatedAt", "fileKey") VALUES ($1, $2, $1, 'features', now(), $3)`, [
          id,
          ws,
          `layers/${ws}/${id}/1.parquet`,
        ]);
      await q(`INSERT INTO environment_layer ("environmentId", "layerId") VALUES ($1, 'stores'), ($1, 'lakes')`, [env.id]);
      await q(`INSERT INTO legacy_layer_data ("layerId", content) VALUES ('lakes', '\\x00')`);

      await migrate(url.toString(), migrationsDir(true));

      expect(await q(`SELECT "workspaceId", id, "fileKey" FROM layer ORDER BY id`)).toEqual([
        { workspaceId: w2.id, id: "lakes", fileKey: `layers/${w2.id}/lakes/1.parquet` },
        { workspaceId: w1.id, id: "stores", fileKey: `layers/${w1.id}/stores/1.parquet` },
      ]);
      expect(await q(`SELECT "environmentId", "workspaceId", "layerId" FROM environment_layer ORDER BY "layerId"`)).toEqual([
        { environmentId: env.id, workspaceId: w2.id, layerId: "lakes" },
        { environmentId: env.id, workspaceId: w1.id, layerId: "stores" },
      ]);
      expect(await q(`SELECT "workspaceId", "layerId" FROM legacy_layer_data`)).toEqual([{ workspaceId: w2.id, layerId: "lakes" }]);
      // The other workspace may now have a "stores" of its own, readable by the same environment.
      await q(`INSERT INTO layer (id, "workspaceId", name, kind, "updatedAt") VALUES ('stores', $1, 'Stores 2', 'features', now())`, [w2.id]);
      await q(`INSERT INTO environment_layer ("environmentId", "workspaceId", "layerId") VALUES ($1, $2, 'stores')`, [env.id, w2.id]);
      // A readable layer must exist in its workspace; deleting the layer deletes what refers to it.
      await expect(q(`INSERT INTO environment_layer ("environmentId", "workspaceId", "layerId") VALUES ($1, $2, 'lakes')`, [env.id, w1.id])).rejects.toThrow(
        /foreign key/,
      );
      await q(`DELETE FROM layer WHERE "workspaceId" = $1 AND id = 'lakes'`, [w2.id]);
      expect(await q(`SELECT count(*)::int AS n FROM legacy_layer_data`)).toEqual([{ n: 0 }]);
      expect(await q(`SELECT "workspaceId", "layerId" FROM environment_layer ORDER BY "workspaceId" = $1`, [w1.id])).toHaveLength(2);
    } finally {
      await db.end();
    }
  });
});
