// npm run db:seed - (re)seed the demo workspace; idempotent.
import path from "node:path";
import { DATA_DIR, openDatabase, prepareSchema } from "@/lib/database/bootstrap";

const log = (m: string) => console.log(`[seed] ${m}`);
const database = await openDatabase({ name: "postgres", port: Number(process.env.EMBEDDED_PG_PORT ?? 54329), log });
try {
  process.env.DATABASE_URL = database.url;
  await prepareSchema(database.url, log);
  const { seedDemo } = await import("@/lib/demo/seed");
  const { forcedDemoUsersFromEnv } = await import("@/lib/users/demo-users");
  const result = await seedDemo({
    keyFile: path.join(DATA_DIR, "demo-keys.json"),
    forcedKeys: { "demo-consumer": process.env.DEMO_API_KEY, "other-consumer": process.env.DEMO_OTHER_API_KEY },
    forcedUsers: forcedDemoUsersFromEnv(process.env),
  });
  log(`demo APIs: ${result.apis.join(", ")}`);
  for (const u of result.users) log(`${u.role}: ${u.email} ${u.password ?? "(password changed since)"}`);
  for (const [consumer, key] of Object.entries(result.keys)) log(`${consumer}: ${key ?? "(key exists; secret not stored here)"}`);
  const { db } = await import("@/lib/db");
  await db.$disconnect();
} finally {
  await database.stop();
}
