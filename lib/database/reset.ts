/**
 * Empties a database for tests and benchmarks: drops the app's and pg-boss's schemas.
 * Refuses anything that is not a local database (lib/database/test-guard.ts).
 */
import pg from "pg";
import { assertLocalDatabase } from "@/lib/database/test-guard";

export async function resetDatabase(url: string): Promise<void> {
  assertLocalDatabase(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("DROP SCHEMA IF EXISTS pgboss CASCADE; DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;");
  } finally {
    await client.end();
  }
}
