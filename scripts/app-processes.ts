/**
 * Starting and stopping the app's processes, shared by `npm start` and the test runner:
 * the production build of Next.js (built when missing or older than the sources), the
 * Next.js server and the pg-boss worker, each its own child process.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "@/lib/database/bootstrap";
import { bundleEntry } from "@/lib/runs/bundle-entry";
import { WORKER_NODE_FLAGS, withMallocEnv } from "@/lib/runs/process-memory";

const NEXT_BIN = path.join(PROJECT_ROOT, "node_modules/next/dist/bin/next");
const SOURCE_DIRS = ["app", "components", "features", "lib", "prisma"];
const SOURCE_FILES = ["next.config.mjs", "postcss.config.mjs", "proxy.ts", "package.json", "tsconfig.json"];

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) {
    if (entry === "generated" || entry === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/** Runs `next build` unless `.next/BUILD_ID` is newer than every source file. */
export function buildIfNeeded(log: (m: string) => void, env: NodeJS.ProcessEnv): void {
  const buildId = path.join(PROJECT_ROOT, ".next/BUILD_ID");
  const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  const sources = Math.max(
    ...SOURCE_DIRS.map((d) => newestMtime(path.join(PROJECT_ROOT, d))),
    ...SOURCE_FILES.map((f) => newestMtime(path.join(PROJECT_ROOT, f))),
  );
  if (built > sources) return;
  log("building the web app (next build); its progress follows (a few minutes the first time, longer on a busy machine)...");
  const t0 = Date.now();
  runNextBuild(env);
  log(`built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/**
 * `next build` (or `bin`, for tests) with its output passed straight through as it comes, so its
 * stage lines ("Creating an optimized production build", "Compiled successfully", "Collecting
 * page data", "Generating static pages (n/N)") show progress: the first build can take minutes,
 * and collecting the output until the end left the terminal silent all that time.
 *
 * @throws Error when the build fails (its messages are already printed).
 */
export function runNextBuild(env: NodeJS.ProcessEnv, bin: string = NEXT_BIN): void {
  const r = spawnSync(process.execPath, [bin, "build"], {
    cwd: PROJECT_ROOT,
    env: { ...env, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (r.status !== 0) throw new Error("next build failed (its output is above)");
}

/**
 * Node flags of a worker: a heap limit when `WORKER_MAX_HEAP_MB` is set. Off by default:
 * too low a limit kills the worker mid-run (the run then fails as worker_lost), and the
 * heap a run needs depends on the data.
 */
export function workerNodeFlags(): string[] {
  const v = Number(process.env.WORKER_MAX_HEAP_MB);
  return Number.isFinite(v) && v >= 128 ? [`--max-old-space-size=${Math.floor(v)}`] : [];
}

export interface TAppProcesses {
  web: ChildProcess;
  /** The current worker (replaced when one dies); null when started with `worker: false`. */
  worker: ChildProcess | null;
  stop: () => Promise<void>;
}

function prefixOutput(child: ChildProcess, prefix: string, quiet: boolean): void {
  const forward = (stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream) => {
    let buf = "";
    stream?.on("data", (chunk: Buffer) => {
      buf += chunk.toString();
      const lines = buf.split("\n");
      buf = lines.pop() ?? "";
      if (!quiet) for (const line of lines) out.write(`${prefix} ${line}\n`);
    });
  };
  forward(child.stdout, process.stdout);
  forward(child.stderr, process.stderr);
}

function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * Starts the Next.js server (`dev` or production `start`) and, unless `worker: false`, one
 * worker (benchmarks run a web-only instance to measure the API without a local worker).
 */
export function startApp(opts: { port: number; host: string; env: NodeJS.ProcessEnv; dev?: boolean; quiet?: boolean; worker?: boolean }): TAppProcesses {
  const env = { ...opts.env, NEXT_TELEMETRY_DISABLED: "1", PORT: String(opts.port) };
  // Idle keep-alive connections are kept 65 s (Node's default is 5 s): longer than the usual
  // 60 s of proxies and clients, so a client never reuses a socket the server is closing.
  const mode = opts.dev ? ["dev"] : ["start", "--keepAliveTimeout", "65000"];
  const web = spawn(process.execPath, [NEXT_BIN, ...mode, "-p", String(opts.port), "-H", opts.host], {
    cwd: PROJECT_ROOT,
    env: { ...env, NODE_ENV: opts.dev ? "development" : "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = (m: string) => console.log(`[start] ${m}`);
  let stopping = false;
  const spawnWorker = (): ChildProcess => {
    // Bundled (lib/runs/bundle-entry.ts): 16 MB less resident than through the tsx loader.
    const entry = bundleEntry(path.join(PROJECT_ROOT, "worker/index.ts"), "worker");
    const child = spawn(process.execPath, [...WORKER_NODE_FLAGS, ...workerNodeFlags(), ...entry.execArgv, entry.script], {
      cwd: PROJECT_ROOT,
      env: withMallocEnv({ ...env, NODE_ENV: opts.dev ? "development" : "production" }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    prefixOutput(child, "[worker]", !!opts.quiet);
    // A worker that dies is replaced, as a process manager would: its unfinished run is
    // retried by pg-boss once the new worker's supervisor sees the missed heartbeat.
    child.once("exit", (code, signal) => {
      if (stopping) return;
      log(`worker exited (${signal ?? code}); starting a new one`);
      setTimeout(() => {
        if (!stopping) procs.worker = spawnWorker();
      }, 1_000);
    });
    return child;
  };
  prefixOutput(web, "[web]", !!opts.quiet);
  const procs: TAppProcesses = {
    web,
    worker: opts.worker === false ? null : spawnWorker(),
    stop: async () => {
      stopping = true;
      await Promise.all([procs.worker ? stopChild(procs.worker, 30_000) : Promise.resolve(), stopChild(web, 10_000)]);
    },
  };
  return procs;
}

/** Polls `GET /api/health` until 200, or throws after `timeoutMs`. */
export async function waitHealthy(baseUrl: string, timeoutMs: number, alive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    if (!alive()) throw new Error("a process of the app exited during start-up");
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`the app did not become healthy within ${timeoutMs / 1000} s (last answer: ${last})`);
}

/**
 * On SIGINT/SIGTERM, runs `stop` (stop the app, then the database: the embedded database
 * runs in its own process group, so a Ctrl-C does not reach it) and exits with 130.
 */
export function stopOnSignals(stop: () => Promise<void>): void {
  const interrupt = async () => {
    await stop();
    process.exit(130);
  };
  process.on("SIGINT", () => void interrupt());
  process.on("SIGTERM", () => void interrupt());
}

/**
 * The life of a process that owns a database and perhaps the app (npm test, npm run bench):
 * `stop` runs on Ctrl-C / SIGTERM (exit 130) and after `main`, whether it returned or threw;
 * then the process exits with `main`'s code (1 when it threw, after logging the error).
 */
export async function runThenStop(stop: () => Promise<void>, main: () => Promise<number>): Promise<never> {
  stopOnSignals(stop);
  let code = 1;
  try {
    code = await main();
  } catch (err) {
    console.error(err);
    code = 1;
  } finally {
    await stop();
  }
  process.exit(code);
}
