// npm start - one command for everything: database (embedded unless DATABASE_URL is set),
// migrations, demo seed, the Next.js server on PORT (default 3000) and the worker.
// Ctrl-C or SIGTERM stops all of it.
//
// Whatever a user can get wrong (a malformed DEMO_API_KEY, a port in use, a second start in the
// same checkout, an unreachable DATABASE_URL, a directory the postgres user cannot enter) ends
// in one sentence with the fix (StartupError), checked before anything is started where it can
// be. A database, web server or worker that stops while the app runs is restarted, or the app
// stops saying why.
import path from "node:path";
import { DATA_DIR, PROJECT_ROOT, openDatabase, type TDatabaseHandle } from "@/lib/database/bootstrap";
import { prepareSchema } from "./prepare-schema";
import { StartupError } from "@/lib/database/startup-error";
import { buildIfNeeded, startApp, waitHealthy } from "./app-processes";
import { checkPortFree, demoKeysFromEnv, reportStartupFailure } from "./start-checks";

const dev = process.argv.includes("--dev");
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "127.0.0.1";
const log = (m: string) => console.log(`[start] ${m}`);

let database: TDatabaseHandle | undefined;
let app: ReturnType<typeof startApp> | undefined;
let stopping = false;

// Children share our process group, so a Ctrl-C reaches them too; their exits then
// arrive here while we are already stopping, and must not cut the ordered shutdown short.
async function shutdown(code: number, why: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log(`${why}; stopping...`);
  await app?.stop();
  if (database) {
    const { db } = await import("@/lib/db");
    await db.$disconnect().catch(() => {});
    await database.stop();
  }
  log("stopped");
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0, "SIGINT"));
process.on("SIGTERM", () => void shutdown(0, "SIGTERM"));

try {
  const forcedKeys = demoKeysFromEnv(process.env);
  await checkPortFree(port, host);
  database = await openDatabase({
    name: "postgres",
    port: Number(process.env.EMBEDDED_PG_PORT ?? 54329),
    log,
    onFatal: (err) => {
      console.error(`[start] ${err.message}`);
      void shutdown(1, "the database is gone");
    },
  });
  process.env.DATABASE_URL = database.url;
  await prepareSchema(database.url, log);
  const { seedDemo } = await import("@/lib/demo/seed");
  const t0 = Date.now();
  const { forcedDemoUsersFromEnv } = await import("@/lib/users/demo-users");
  const seeded = await seedDemo({ keyFile: path.join(DATA_DIR, "demo-keys.json"), forcedKeys, forcedUsers: forcedDemoUsersFromEnv(process.env) });
  log(`demo workspace ready in ${Date.now() - t0} ms (APIs: ${seeded.apis.join(", ")})`);
  // Sessions are signed with AUTH_SECRET; generated once into .data/auth-secret when unset.
  const { authSecret } = await import("@/lib/auth/secret");
  const env = { ...process.env, DATABASE_URL: database.url, AUTH_SECRET: authSecret(PROJECT_ROOT) };
  if (!dev) buildIfNeeded(log, env);
  // The database start and the build take a while: the port may have been taken meanwhile.
  await checkPortFree(port, host);
  // A web server or worker that dies is restarted (RESTART_POLICY: 5 times within 10 minutes);
  // one that keeps dying stops everything, saying which and how often.
  let gaveUp = false;
  app = startApp({
    port,
    host,
    env,
    dev,
    onGiveUp: (reason) => {
      gaveUp = true;
      console.error(`[start] ${reason}`);
      void shutdown(1, "giving up");
    },
  });
  const base = `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`;
  await waitHealthy(base, 120_000, () => !gaveUp);
  const key = seeded.keys["demo-consumer"];
  console.log(`
  Flow API service is up: ${base}
  Health:        ${base}/api/health
  Demo API key:  ${key ?? "(created earlier, not remembered in .data/demo-keys.json; set DEMO_API_KEY, or npm run reset to start over)"}
  Other key:     ${seeded.keys["other-consumer"] ?? "(already created)"}

  Sign in at ${base}/sign-in
${seeded.users.map((u) => `    ${u.role === "admin" ? "Admin:   " : "Designer:"}  ${u.email}  ${u.password ?? "(not shown: changed on the account page, or .data/demo-users.json is gone; set DEMO_" + u.role.toUpperCase() + "_PASSWORD, or npm run reset to start over)"}`).join("\n")}

  Try it:
    curl -s -X POST ${base}/public/api/demo/production/country-stats/runs \\
      -H "X-Api-Key: ${key ?? "<your key>"}" -H "Content-Type: application/json" \\
      -d '{"inputs":{"cities":{"layer_id":"world-cities"},"countries":{"layer_id":"world-countries"}},"parameters":{"top":5},"wait_seconds":30}'

  Press Ctrl-C to stop.
`);
} catch (err) {
  reportStartupFailure(err, "[start]");
  await shutdown(1, err instanceof StartupError ? "start-up failed" : `start-up failed: ${(err as Error).message}`);
}
