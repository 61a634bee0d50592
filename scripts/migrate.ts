// npm run db:migrate - apply SQL migrations and the pg-boss schema to DATABASE_URL (or the embedded
// database), then move what an older database kept in Postgres (layers, result files) into the
// blob store (lib/layers/convert-legacy.ts).
import { openDatabase } from "@/lib/database/bootstrap";
import { prepareSchema } from "./prepare-schema";
import { reportStartupFailure } from "./start-checks";

const log = (m: string) => console.log(`[migrate] ${m}`);
const database = await openDatabase({ name: "postgres", port: Number(process.env.EMBEDDED_PG_PORT ?? 54329), log }).catch((err: unknown) => {
  reportStartupFailure(err, "[migrate]");
  process.exit(1);
});
try {
  await prepareSchema(database.url, log);
  process.env.DATABASE_URL ??= database.url;
  const { convertLegacyData } = await import("@/lib/layers/convert-legacy");
  await convertLegacyData(log);
} finally {
  await database.stop();
}
