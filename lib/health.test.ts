/**
 * /api/health keeps answering when the database does not: against a TCP server that accepts
 * connections and never answers (a PostgreSQL stopped with SIGSTOP), `health()` reports the
 * database down when its own time is up, well before the pool's connect timeout.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let silent: net.Server;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  silent = net.createServer((s) => {
    sockets.add(s);
    s.on("error", () => {});
  });
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  process.env.DATABASE_URL = `postgresql://u:p@127.0.0.1:${(silent.address() as net.AddressInfo).port}/db`;
  process.env.DATABASE_CONNECT_TIMEOUT_MS = "30000";
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent.close(r));
});

describe("health", () => {
  it("answers 'database down' within its time limit when the database never answers", async () => {
    const { health } = await import("@/lib/health");
    const t0 = Date.now();
    const results = await Promise.all([health(300), health(300), health(300)]);
    const took = Date.now() - t0;
    for (const h of results) {
      expect(h.ok).toBe(false);
      expect(h.database.ok).toBe(false);
      expect(h.database.error).toMatch(/^unreachable/);
    }
    // the pool's connect timeout is 30 s here (it was the only limit before: 5 s): the answer came from health's own limit
    expect(took).toBeLessThan(3_000);
  });
});
