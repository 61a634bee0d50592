// npm run db:seed - (re)seed the demo workspace; idempotent.
import path from "node:path";
import { DATA_DIR, openDatabase } from "@/lib/database/bootstrap";
import { prepareSchema } from "./prepare-schema";
import { demoKeysFromEnv, reportStartupFailure } from "./start-checks";

const log = (m: string) => console.log(`[seed] ${m}`);
let forcedKeys: ReturnType<typeof demoKeysFromEnv>;
let database: Awaited<ReturnType<typeof openDatabase>>;
try {
  forcedKeys = demoKeysFromEnv(process.env);
  database = await openDatabase({ name: "postgres", port: Number(process.env.EMBEDDED_PG_PORT ?? 54329), log });
} catch (err) {
  reportStartupFailure(err, "[seed]");
  process.exit(1);
}
try {
  process.env.DATABASE_URL = database.url;
  await prepareSchema(database.url, log);
  const { seedDemo } = await import("@/lib/demo/seed");
  const { forcedDemoUsersFromEnv } = await import("@/lib/users/demo-users");
  const result = await seedDemo({
    keyFile: path.join(DATA_DIR, "demo-keys.json"),
    forcedKeys,
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
