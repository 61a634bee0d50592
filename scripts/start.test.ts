// `npm start` refuses what a user got wrong with one sentence and exit code 1, no stack trace,
// before it starts anything (run as a real process; none of these cases reach a database).
import { spawnSync } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

function start(env: Record<string, string>): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: "", DEMO_API_KEY: "", DEMO_OTHER_API_KEY: "", EMBEDDED_PG_PORT: "1", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

function expectOneSentence(out: string, pattern: RegExp): void {
  expect(out).toMatch(pattern);
  expect(out).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack frames
}

describe("npm start refuses a user's mistake in one sentence", () => {
  it("a DEMO_API_KEY not in the key format, naming the variable and the format", () => {
    const r = start({ DEMO_API_KEY: "my-demo-key", PORT: "1" });
    expect(r.code).toBe(1);
    expectOneSentence(r.out, /\[start\] DEMO_API_KEY is not an API key: a key is "fapi_" followed by 32 letters and digits/);
  }, 60_000);

  it("a web port in use", async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const r = start({ PORT: String(port) });
      expect(r.code).toBe(1);
      expectOneSentence(r.out, new RegExp(`\\[start\\] Port ${port} is already in use .*PORT=<port>`));
    } finally {
      await new Promise((r) => server.close(r));
    }
  }, 60_000);

  it("a DATABASE_URL nothing answers at, without its password", async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const free = (server.address() as net.AddressInfo).port;
    await new Promise((r) => server.close(r));
    const r = start({ DATABASE_URL: "postgresql://someone:s3cret@127.0.0.1:1/flowapi", PORT: String(free) });
    expect(r.code).toBe(1);
    expectOneSentence(r.out, /\[start\] The database in DATABASE_URL \(postgresql:\/\/someone:\*\*\*@127\.0\.0\.1:1\/flowapi\) cannot be used: ECONNREFUSED/);
    expect(r.out).not.toContain("s3cret");
  }, 60_000);
});
