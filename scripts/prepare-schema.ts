/**
 * Brings an open database's schema up to date: the SQL migrations of prisma/migrations, then
 * the pg-boss schema and queues. Shared by `npm start`, `npm run db:migrate`, `npm run db:seed`
 * and the test runner; an operation above lib/ because it needs the job registry (lib/jobs).
 */
import path from "node:path";
import { PROJECT_ROOT } from "@/lib/database/bootstrap";
import { migrate } from "@/lib/database/migrate";

/** Applies migrations and prepares the job queues. */
export async function prepareSchema(url: string, log: (m: string) => void): Promise<void> {
  const applied = await migrate(url, path.join(PROJECT_ROOT, "prisma/migrations"), log);
  if (applied.length === 0) log("database schema is up to date");
  // Imported here so that `migrate` alone never loads pg-boss or the app's env.
  const { ensureJobSchema } = await import("@/lib/jobs/boss");
  await ensureJobSchema(url);
}
