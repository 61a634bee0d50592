// npm run db:migrate - apply SQL migrations and the pg-boss schema to DATABASE_URL (or the embedded database).
import { openDatabase, prepareSchema } from "@/lib/database/bootstrap";

const log = (m: string) => console.log(`[migrate] ${m}`);
const database = await openDatabase({ name: "postgres", port: Number(process.env.EMBEDDED_PG_PORT ?? 54329), log });
try {
  await prepareSchema(database.url, log);
} finally {
  await database.stop();
}
