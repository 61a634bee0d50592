// npm test - the whole suite from nothing: static checks (types, lint with the layer rule and
// import cycles, knip's unused files, exports and dependencies, formatting), then a test database (embedded PostgreSQL in
// .data/test-postgres, or a local DATABASE_URL), a reset schema, migrations, the demo seed
// with fresh keys, a production build of the app, the web server and a worker on a free
// port; then vitest (unit and integration projects), then the browser tests (Playwright in
// Debian's Chromium, e2e/); then everything is stopped.
// Extra arguments pick files: `e2e/...` ones go to Playwright, the others to vitest, e.g.
// `npm test -- tests/integration/contract.test.ts` (vitest only) or `npm test -- e2e/roles.spec.ts`.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DATA_DIR, PROJECT_ROOT, openDatabase } from "@/lib/database/bootstrap";
import { freshDemoDatabase } from "./fresh-demo-database";
import { buildIfNeeded, freePort, runThenStop, startApp, waitHealthy } from "./app-processes";

const log = (m: string) => console.log(`[test] ${m}`);
const REPORT = path.join(DATA_DIR, "vitest-report.json");
const E2E_REPORT = path.join(DATA_DIR, "playwright-report.json");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

interface TCounts {
  passed: number;
  failed: number;
  skipped: number;
}

function vitestCounts(): TCounts {
  try {
    const r = JSON.parse(fs.readFileSync(REPORT, "utf8")) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
    return { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + r.numTodoTests };
  } catch {
    return { passed: 0, failed: 1, skipped: 0 }; // no report: vitest did not finish
  }
}

function playwrightCounts(): TCounts {
  try {
    const r = JSON.parse(fs.readFileSync(E2E_REPORT, "utf8")) as { stats: { expected: number; unexpected: number; flaky: number; skipped: number } };
    return { passed: r.stats.expected, failed: r.stats.unexpected + r.stats.flaky, skipped: r.stats.skipped };
  } catch {
    return { passed: 0, failed: 1, skipped: 0 };
  }
}

/** One plain closing line ("N passed, N failed, N skipped", vitest and Playwright together) that any CI can read. */
function printSummary(parts: TCounts[]): void {
  const sum = parts.reduce((a, b) => ({ passed: a.passed + b.passed, failed: a.failed + b.failed, skipped: a.skipped + b.skipped }), {
    passed: 0,
    failed: 0,
    skipped: 0,
  });
  console.log(`\nTests: ${sum.passed} passed, ${sum.failed} failed, ${sum.skipped} skipped`);
}

/**
 * Debian's Chromium for the browser tests: installed with apt when missing and we are root;
 * otherwise one sentence saying what to install, and a failing summary.
 */
function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM)) return;
  const root = process.getuid?.() === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).status === 0;
  if (root && apt) {
    log("Chromium is missing; installing it: apt-get update && apt-get install -y chromium");
    const r = spawnSync("sh", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"], { stdio: "inherit" });
    if (r.status === 0 && fs.existsSync(CHROMIUM)) return;
  }
  console.error(
    `[test] The browser tests need Debian's Chromium at ${CHROMIUM}: install it with \`sudo apt-get update && sudo apt-get install -y chromium\` (or set CHROMIUM_PATH to a Chromium binary) and run npm test again.`,
  );
  console.log("\nTests: 0 passed, 1 failed, 0 skipped");
  process.exit(1);
}

/**
 * Debian's OWSLib (`python3-owslib`), the independent OGC API - Processes client of
 * tests/integration/ogc-owslib.test.ts: installed with apt when missing and we are root;
 * otherwise that test skips, saying why.
 */
function ensureOwslib(): void {
  if (spawnSync("/usr/bin/python3", ["-c", "import owslib.ogcapi.processes"]).status === 0) return;
  const root = process.getuid?.() === 0;
  const apt = spawnSync("sh", ["-c", "command -v apt-get"], { encoding: "utf8" }).status === 0;
  if (!root || !apt) return;
  log("OWSLib is missing; installing it: apt-get install -y python3-owslib");
  spawnSync(
    "sh",
    [
      "-c",
      "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-owslib || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-owslib)",
    ],
    {
      stdio: "inherit",
    },
  );
}

// `npm test -- <files>`: e2e/ files go to Playwright, the others to vitest; no files = everything.
const args = process.argv.slice(2);
const isE2e = (a: string) => a.startsWith("e2e/") || a.startsWith("./e2e/") || a.endsWith(".spec.ts");
const files = args.filter((a) => !a.startsWith("-"));
const e2eArgs = args.filter(isE2e);
const vitestArgs = args.filter((a) => !isE2e(a));
const runVitest = files.length === 0 || files.some((a) => !isE2e(a));
const runE2e = files.length === 0 || e2eArgs.length > 0;

// Static checks first: they take seconds and a failure there needs no database to explain.
// TEST_SKIP_CHECKS=1 skips them while iterating on one test file.
for (const check of process.env.TEST_SKIP_CHECKS === "1" ? [] : ["typecheck", "lint", "knip", "format:check"]) {
  log(`npm run ${check}`);
  const r = spawnSync("npm", ["run", "--silent", check], { cwd: PROJECT_ROOT, stdio: "inherit" });
  if (r.status !== 0) {
    console.error(`[test] npm run ${check} failed; fix it first (npm run format rewrites the formatting).`);
    console.log("\nTests: 0 passed, 1 failed, 0 skipped");
    process.exit(1);
  }
}

if (runE2e) ensureChromium();
if (runVitest && (files.length === 0 || files.some((a) => a.includes("ogc-owslib")))) ensureOwslib();

const database = await openDatabase({ name: "test-postgres", port: Number(process.env.TEST_PG_PORT ?? (await freePort())), log });
let app: ReturnType<typeof startApp> | undefined;
const stop = async () => {
  await app?.stop();
  await database.stop();
};
await runThenStop(stop, async () => {
  try {
    return await runSuite();
  } catch (err) {
    console.log("\nTests: 0 passed, 1 failed, 0 skipped");
    throw err;
  }
});

/** Seed, build, start the app, then vitest and Playwright; the exit code of the suite. */
async function runSuite(): Promise<number> {
  // The demo users get fresh credentials each run; the browser tests read them from the environment.
  const users = {
    DEMO_DESIGNER_EMAIL: "designer@demo.local",
    DEMO_DESIGNER_PASSWORD: `designer-${randomBytes(9).toString("base64url")}`,
    DEMO_ADMIN_EMAIL: "admin@demo.local",
    DEMO_ADMIN_PASSWORD: `admin-${randomBytes(9).toString("base64url")}`,
  };
  const { demo, other } = await freshDemoDatabase(database.url, path.join(DATA_DIR, "test-keys.json"), log, {
    designer: { email: users.DEMO_DESIGNER_EMAIL, password: users.DEMO_DESIGNER_PASSWORD },
    admin: { email: users.DEMO_ADMIN_EMAIL, password: users.DEMO_ADMIN_PASSWORD },
  });
  const keys = { "demo-consumer": demo, "other-consumer": other };
  const { db } = await import("@/lib/db");
  await db.$disconnect();

  // A generous run-time limit: the suite runs on shared, sometimes overloaded machines, where a
  // demo run can take many times its usual second; the limit itself is tested in run-pool.test.ts.
  const env = {
    ...process.env,
    DATABASE_URL: database.url,
    NODE_ENV: "production" as const,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    RUN_TIME_LIMIT_SECONDS: process.env.RUN_TIME_LIMIT_SECONDS ?? "120",
    // Inputs by reference: a small per-run limit, so a test file can pass it (tests/integration/href-inputs.test.ts).
    RUN_MAX_INPUT_MB: process.env.RUN_MAX_INPUT_MB ?? "4",
  };
  buildIfNeeded(log, env);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  app = startApp({ port, host: "127.0.0.1", env, quiet: !process.env.TEST_VERBOSE });
  await waitHealthy(baseUrl, 120_000, () => app!.web.exitCode === null);
  log(`app up at ${baseUrl}`);

  const testEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "test",
    DATABASE_URL: database.url,
    TEST_BASE_URL: baseUrl,
    TEST_DEMO_API_KEY: keys["demo-consumer"],
    TEST_OTHER_API_KEY: keys["other-consumer"],
    ...users,
  };
  // Asynchronous on purpose: this process supervises the app (restarts a dead worker,
  // drains its log pipes) while the tests run.
  const run = (argv: string[], extraEnv: Record<string, string> = {}) =>
    new Promise<number>((resolve) => {
      const child: ChildProcess = spawn(process.execPath, argv, { cwd: PROJECT_ROOT, stdio: "inherit", env: { ...testEnv, ...extraEnv } });
      child.once("exit", (c) => resolve(c ?? 1));
    });
  const counts: TCounts[] = [];
  let vitestCode = 0;
  if (runVitest) {
    fs.rmSync(REPORT, { force: true });
    vitestCode = await run([
      "--conditions=react-server",
      path.join(PROJECT_ROOT, "node_modules/vitest/vitest.mjs"),
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${REPORT}`,
      ...vitestArgs,
    ]);
    counts.push(vitestCounts());
  }
  let e2eCode = 0;
  if (runE2e) {
    fs.rmSync(E2E_REPORT, { force: true });
    log("browser tests (Playwright, Chromium)");
    const t0 = Date.now();
    // The react-server condition lets e2e helpers import server modules (password hashing) as scripts do.
    e2eCode = await run([path.join(PROJECT_ROOT, "node_modules/@playwright/test/cli.js"), "test", ...e2eArgs], {
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --conditions=react-server`.trim(),
    });
    log(`browser tests took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    counts.push(playwrightCounts());
  }
  printSummary(counts);
  return vitestCode !== 0 ? vitestCode : e2eCode;
}
