/**
 * Starting and stopping the app's processes, shared by `npm start` and the test runner:
 * the production build of Next.js (built when missing or older than the sources), the
 * Next.js server and the pg-boss worker, each its own child process.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { PROJECT_ROOT } from "@/lib/database/bootstrap";
import { processEntry } from "@/lib/processes/process-entry";

const NEXT_BIN = path.join(PROJECT_ROOT, "node_modules/next/dist/bin/next");
const SOURCE_DIRS = ["app", "components", "features", "lib", "prisma", "worker"];
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

/** Runs `next build` and bundles the app's processes (`npm run build`) unless `.next/BUILD_ID` is newer than every source file. */
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
  const r = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join(PROJECT_ROOT, "scripts/build-processes.ts")], {
    cwd: PROJECT_ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (r.status !== 0) throw new Error("bundling the app's processes failed (its output is above)");
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
  /** The current web server (replaced when one dies). */
  readonly web: ChildProcess;
  /** The current worker (replaced when one dies); null when started with `worker: false`. */
  readonly worker: ChildProcess | null;
  stop: () => Promise<void>;
}

/** At most `max` restarts of one process within `windowMs`; the next death gives up. */
export interface TRestartPolicy {
  max: number;
  windowMs: number;
  /** Pause before a restart, ms (a crash loop must not spin the CPU). */
  delayMs: number;
}

/** npm start's policy: 5 restarts within 10 minutes, 1 s apart. */
export const RESTART_POLICY: TRestartPolicy = { max: 5, windowMs: 10 * 60_000, delayMs: 1_000 };

export type TRestartDecision = { restart: true; restarts: number[] } | { restart: false; reason: string };

/**
 * Whether a process that died at `now` (ms) is started again, given the times of its
 * earlier restarts: yes (with the restart times to remember, those older than the window
 * dropped) while fewer than `policy.max` fall within `policy.windowMs`, else no, with a
 * sentence saying why. Pure, so the policy is tested without processes.
 */
export function restartDecision(
  restarts: readonly number[],
  now: number,
  policy: Pick<TRestartPolicy, "max" | "windowMs">,
  what: string,
  how: string,
): TRestartDecision {
  const recent = restarts.filter((t) => t > now - policy.windowMs);
  if (recent.length >= policy.max) {
    const minutes = policy.windowMs / 60_000;
    const window = Number.isInteger(minutes) ? `${minutes} minute${minutes === 1 ? "" : "s"}` : `${policy.windowMs / 1000} s`;
    return {
      restart: false,
      reason: `the ${what} died ${recent.length + 1} times within ${window} (last: ${how}); it was restarted ${recent.length} times and is not restarted again`,
    };
  }
  return { restart: true, restarts: [...recent, now] };
}

/** How a child ended, for log lines ("exit code 1", "SIGKILL"). */
function howItEnded(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ?? `exit code ${code}`;
}

/**
 * Keeps one child process running: `spawnChild()` starts it, and again after each
 * unexpected exit (not after `stop()`) as `policy` allows; when the policy refuses,
 * `onGiveUp(reason)` is called once and nothing is restarted any more.
 */
export function supervise(opts: {
  what: string;
  spawnChild: () => ChildProcess;
  policy?: TRestartPolicy;
  log?: (m: string) => void;
  onGiveUp: (reason: string) => void;
}): { current: () => ChildProcess; stop: (graceMs: number) => Promise<void> } {
  const policy = opts.policy ?? RESTART_POLICY;
  let restarts: number[] = [];
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  const start = (): ChildProcess => {
    const child = opts.spawnChild();
    child.once("exit", (code, signal) => {
      if (stopping) return;
      const decision = restartDecision(restarts, Date.now(), policy, opts.what, howItEnded(code, signal));
      if (!decision.restart) {
        opts.onGiveUp(decision.reason);
        return;
      }
      restarts = decision.restarts;
      opts.log?.(
        `${opts.what} exited (${howItEnded(code, signal)}); starting a new one (restart ${restarts.length} of ${policy.max} allowed within ${policy.windowMs / 60_000} min)`,
      );
      timer = setTimeout(() => {
        if (!stopping) current = start();
      }, policy.delayMs);
    });
    return child;
  };
  let current = start();
  return {
    current: () => current,
    stop: async (graceMs) => {
      stopping = true;
      clearTimeout(timer);
      await stopChild(current, graceMs);
    },
  };
}

/** Lines of a quiet child's stderr kept to say why it failed. */
const QUIET_TAIL_LINES = 20;

/**
 * Writes a child's output line by line under `prefix`. Quiet, it writes nothing but the last
 * `QUIET_TAIL_LINES` of stderr when the child exits with an error code, so a process that keeps
 * dying (a port in use, a bad setting) still says why in a test's log.
 */
function prefixOutput(child: ChildProcess, prefix: string, quiet: boolean): void {
  const tail: string[] = [];
  const forward = (stream: NodeJS.ReadableStream | null, out: NodeJS.WriteStream, keep: boolean) => {
    let buf = "";
    stream?.on("data", (chunk: Buffer) => {
      buf += chunk.toString();
      const lines = buf.split("\n");
      buf = lines.pop() ?? "";
      for (const line of lines) {
        if (!quiet) out.write(`${prefix} ${line}\n`);
        else if (keep && tail.push(line) > QUIET_TAIL_LINES) tail.shift();
      }
    });
  };
  forward(child.stdout, process.stdout, false);
  forward(child.stderr, process.stderr, true);
  // "close", not "exit": the last lines may still be in the pipe when the process has exited.
  child.once("close", (code) => {
    if (quiet && code && tail.length > 0) process.stderr.write(tail.map((line) => `${prefix} ${line}\n`).join(""));
  });
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
 * A web server or worker that dies is replaced, as a process manager would, within
 * `RESTART_POLICY` (a dead worker's unfinished run is retried by pg-boss once the new
 * worker's supervisor sees the missed heartbeat); past it, `onGiveUp` is called with the
 * reason (npm start then stops everything and prints it).
 */
export function startApp(opts: {
  port: number;
  host: string;
  env: NodeJS.ProcessEnv;
  dev?: boolean;
  quiet?: boolean;
  worker?: boolean;
  policy?: TRestartPolicy;
  onGiveUp?: (reason: string) => void;
}): TAppProcesses {
  const env = { ...opts.env, NEXT_TELEMETRY_DISABLED: "1", PORT: String(opts.port) };
  const log = (m: string) => console.log(`[start] ${m}`);
  let gaveUp = false;
  const onGiveUp = (reason: string) => {
    if (gaveUp) return;
    gaveUp = true;
    (opts.onGiveUp ?? ((r: string) => console.error(`[start] ${r}`)))(reason);
  };
  // Idle keep-alive connections are kept 65 s (Node's default is 5 s): longer than the usual
  // 60 s of proxies and clients, so a client never reuses a socket the server is closing.
  const mode = opts.dev ? ["dev"] : ["start", "--keepAliveTimeout", "65000"];
  const web = supervise({
    what: "web server",
    policy: opts.policy,
    log,
    onGiveUp,
    spawnChild: () => {
      const child = spawn(process.execPath, [NEXT_BIN, ...mode, "-p", String(opts.port), "-H", opts.host], {
        cwd: PROJECT_ROOT,
        env: { ...env, NODE_ENV: opts.dev ? "development" : "production" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      prefixOutput(child, "[web]", !!opts.quiet);
      return child;
    },
  });
  const worker =
    opts.worker === false
      ? null
      : supervise({
          what: "worker",
          policy: opts.policy,
          log,
          onGiveUp,
          spawnChild: () => {
            // From its bundle in production (lib/processes/process-entry.ts), through tsx in development.
            const entry = processEntry(path.join(PROJECT_ROOT, "worker/index.ts"), "worker", !opts.dev);
            const child = spawn(process.execPath, [...workerNodeFlags(), ...entry.execArgv, entry.script], {
              cwd: PROJECT_ROOT,
              env: { ...env, NODE_ENV: opts.dev ? "development" : "production" },
              stdio: ["ignore", "pipe", "pipe"],
            });
            prefixOutput(child, "[worker]", !!opts.quiet);
            return child;
          },
        });
  return {
    get web() {
      return web.current();
    },
    get worker() {
      return worker?.current() ?? null;
    },
    stop: async () => {
      await Promise.all([worker ? worker.stop(30_000) : Promise.resolve(), web.stop(10_000)]);
    },
  };
}

/**
 * A TCP port of 127.0.0.1 that is free now: the one the OS gives a listener on port 0. Not a
 * random one: a random port can be the local end of one of the machine's outgoing connections
 * (Linux takes those from 32768-60999), and a server started there exits with EADDRINUSE.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
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
