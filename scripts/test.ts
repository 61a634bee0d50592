// npm test - the whole suite from nothing: static checks (types, lint with the layer rule and
// import cycles, formatting), then a test database (embedded PostgreSQL in
// .data/test-postgres, or a local DATABASE_URL), a reset schema, migrations, the demo seed
// with fresh keys, a production build of the app, the web server and a worker on a free
// port; then vitest (unit and integration projects); then everything is stopped.
// Extra arguments go to vitest, e.g. `npm test -- tests/integration/contract.test.ts`.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { DATA_DIR, PROJECT_ROOT, openDatabase } from "@/lib/database/bootstrap";
import { freshDemoDatabase } from "./fresh-demo-database";
import { buildIfNeeded, runThenStop, startApp, waitHealthy } from "./app-processes";

const log = (m: string) => console.log(`[test] ${m}`);
const REPORT = path.join(DATA_DIR, "vitest-report.json");

/** One plain closing line ("N passed, N failed, N skipped") that any CI can read. */
function printSummary(): void {
  try {
    const r = JSON.parse(fs.readFileSync(REPORT, "utf8")) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
    console.log(`\nTests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + r.numTodoTests} skipped`);
  } catch {
    console.log("\nTests: 0 passed, 1 failed (no test report was written)");
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

// Static checks first: they take seconds and a failure there needs no database to explain.
// TEST_SKIP_CHECKS=1 skips them while iterating on one test file.
for (const check of process.env.TEST_SKIP_CHECKS === "1" ? [] : ["typecheck", "lint", "format:check"]) {
  log(`npm run ${check}`);
  const r = spawnSync("npm", ["run", "--silent", check], { cwd: PROJECT_ROOT, stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`[test] npm run ${check} failed; fix it first (npm run format rewrites the formatting).`);
    console.log("\nTests: 0 passed, 1 failed, 0 skipped");
    process.exit(1);
  }
}

const database = await openDatabase({ name: "test-postgres", port: Number(process.env.TEST_PG_PORT ?? (await freePort())), log });
let app: ReturnType<typeof startApp> | undefined;
const stop = async () => {
  await app?.stop();
  await database.stop();
};
await runThenStop(stop, async () => {
  const { demo, other } = await freshDemoDatabase(database.url, path.join(DATA_DIR, "test-keys.json"), log);
  const keys = { "demo-consumer": demo, "other-consumer": other };
  const { db } = await import("@/lib/db");
  await db.$disconnect();

  // A generous run-time limit: the suite runs on shared, sometimes overloaded machines, where a
  // demo run can take many times its usual second; the limit itself is tested in run-pool.test.ts.
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    NODE_ENV: "production" as const,
    RUN_TIME_LIMIT_SECONDS: process.env.RUN_TIME_LIMIT_SECONDS ?? "120",
  };
  buildIfNeeded(log, env);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  app = startApp({ port, host: "127.0.0.1", env, quiet: !process.env.TEST_VERBOSE });
  await waitHealthy(baseUrl, 120_000, () => app!.web.exitCode === null);
  log(`app up at ${baseUrl}`);

  // Asynchronous on purpose: this process supervises the app (restarts a dead worker,
  // drains its log pipes) while the tests run.
  const vitest = spawn(
    process.execPath,
    [
      "--conditions=react-server",
      path.join(PROJECT_ROOT, "node_modules/vitest/vitest.mjs"),
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${REPORT}`,
      ...process.argv.slice(2),
    ],
    {
      cwd: PROJECT_ROOT,
      stdio: "inherit",
      env: {
        ...process.env,
        NODE_ENV: "test",
        DATABASE_URL: database.url,
        TEST_BASE_URL: baseUrl,
        TEST_DEMO_API_KEY: keys["demo-consumer"],
        TEST_OTHER_API_KEY: keys["other-consumer"],
      },
    },
  );
  const code = await new Promise<number>((resolve) => vitest.once("exit", (c) => resolve(c ?? 1)));
  printSummary();
  return code;
});
