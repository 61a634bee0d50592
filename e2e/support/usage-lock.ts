/**
 * A Postgres advisory lock for the demo workspace's usage counters. Playwright runs spec files
 * in two workers at once: a test that compares the counters before and after its own work
 * (design-lifecycle's Try it, the console's usage check) and every call of a demo API with a key
 * (the console's `listRuns`, design-helpers' `callPublished`) must take turns, or the call lands
 * in the other test's window (seen: the console's check counted 5 publish-step calls). Session-level lock on a
 * connection of its own (DATABASE_URL from scripts/test.ts), released when `fn` settles.
 */
import pg from "pg";

/** Any fixed number: the lock's key among this database's advisory locks. */
const DEMO_USAGE_LOCK = 8_208_001;

export async function withDemoUsageLock<T>(fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [DEMO_USAGE_LOCK]);
    return await fn();
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [DEMO_USAGE_LOCK]).catch(() => {});
    await client.end();
  }
}
