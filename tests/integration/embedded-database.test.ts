/**
 * The embedded database on its own (lib/database/embedded.ts), each case on a fresh cluster in
 * a temporary folder (not the app's):
 *
 * - a second start on the same data folder refuses with one sentence naming the running
 *   server, and leaves its files alone (the running server keeps answering);
 * - a server killed under a running app comes back by itself;
 * - a port taken by another program is refused with a sentence naming EMBEDDED_PG_PORT;
 * - run as root from a directory the postgres user cannot enter (mode 700), the binaries and
 *   the data move to a state folder it can reach, and the database works.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { runningServer, startEmbeddedDatabase, type TEmbeddedDatabase } from "@/lib/database/embedded";
import { StartupError } from "@/lib/database/startup-error";
import { waitFor } from "./helpers";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  client.on("error", () => {});
  try {
    await client.connect();
    return (await client.query("SELECT 1 AS one")).rows[0].one === 1;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const f of cleanup.reverse()) await f();
});

function tempDir(mode = 0o755): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flow-api-embedded-"));
  fs.chmodSync(dir, mode);
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function start(dir: string, port: number, extra: { stateDir?: string; log?: (m: string) => void } = {}): Promise<TEmbeddedDatabase> {
  const db = await startEmbeddedDatabase({ dir, port, database: "flowapi", ...extra });
  cleanup.push(() => db.stop());
  return db;
}

describe("the embedded database", () => {
  it("refuses a second start on the same data folder without touching the first one's files, and restarts a killed server", async () => {
    const dir = path.join(tempDir(), "postgres");
    const port = await freePort();
    const first = await start(dir, port);
    expect(await answers(first.url)).toBe(true);
    const pidFile = path.join(dir, "postmaster.pid");
    const before = fs.readFileSync(pidFile, "utf8");

    // Another port, as a second checkout of the app would pick: still refused, by the pid file.
    const err = await startEmbeddedDatabase({ dir, port: await freePort(), database: "flowapi" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartupError);
    const running = runningServer(dir)!;
    expect((err as Error).message).toContain(`PostgreSQL pid ${running.pid}, port ${port}`);
    expect((err as Error).message).toMatch(/stop it first .*DATABASE_URL=/);
    expect(fs.readFileSync(pidFile, "utf8")).toBe(before);
    expect(await answers(first.url)).toBe(true);

    // The same port: the same answer (the pid file is checked before the port).
    await expect(startEmbeddedDatabase({ dir, port, database: "flowapi" })).rejects.toThrow(/already runs the database/);

    // Killed under us: restarted.
    process.kill(running.pid, "SIGKILL");
    await waitFor("the database to be back", async () => (await answers(first.url)) && runningServer(dir)?.pid !== running.pid, 30_000);
    expect(runningServer(dir)?.pid).not.toBe(running.pid);
  }, 120_000);

  it("refuses a port another program holds, naming EMBEDDED_PG_PORT", async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const err = await startEmbeddedDatabase({ dir: path.join(tempDir(), "postgres"), port, database: "flowapi" }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StartupError);
      expect((err as Error).message).toMatch(new RegExp(`^Port ${port} is already in use.*EMBEDDED_PG_PORT`));
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it.runIf(process.getuid?.() === 0)(
    "run as root from a directory the postgres user cannot enter, keeps binaries and data where it can",
    async () => {
      const closed = tempDir(0o700); // like /root
      const state = tempDir(0o755);
      const dir = path.join(closed, "checkout", ".data", "postgres");
      const logs: string[] = [];
      const db = await start(dir, await freePort(), { stateDir: state, log: (m) => logs.push(m) });
      expect(await answers(db.url)).toBe(true);
      expect(db.dir.startsWith(state + path.sep)).toBe(true);
      expect(fs.readFileSync(`${dir}.location`, "utf8").trim()).toBe(db.dir);
      expect(fs.existsSync(path.join(db.dir, "PG_VERSION"))).toBe(true);
      expect(logs.join("\n")).toMatch(/postgres user cannot reach/);
    },
    120_000,
  );
});
