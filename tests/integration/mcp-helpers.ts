/**
 * Helpers for the MCP tests (tests/integration/mcp-*.test.ts): the official SDK client
 * (`@modelcontextprotocol/client`) connected to the running app's MCP address over real
 * HTTP, as a 2025-era client (`initialize`) or a 2026-07-28 one (`server/discover`), and a
 * small reverse proxy that adds the API key header for tools that cannot send one.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { BASE_URL, DEMO_KEY, sql } from "./helpers";

export const MCP_PATH = "/public/mcp/demo/production";
export const MCP_URL = BASE_URL + MCP_PATH;

export type TEra = "legacy" | "modern";

/** A connected SDK client. `key: null` sends none; `bearer` sends it as `Authorization: Bearer`. */
export async function mcpClient(opts: { key?: string | null; era?: TEra; url?: string; bearer?: boolean } = {}): Promise<Client> {
  const key = opts.key === undefined ? DEMO_KEY : opts.key;
  const headers: Record<string, string> = {};
  if (key) headers[opts.bearer ? "authorization" : "x-api-key"] = opts.bearer ? `Bearer ${key}` : key;
  const client = new Client(
    { name: "flow-api-tests", version: "1.0.0" },
    { versionNegotiation: { mode: opts.era === "modern" ? { pin: "2026-07-28" } : "legacy" } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(opts.url ?? MCP_URL), { requestInit: { headers } }));
  return client;
}

/** Runs `fn` with a client and closes it afterwards. */
export async function withClient<T>(opts: Parameters<typeof mcpClient>[0], fn: (c: Client) => Promise<T>): Promise<T> {
  const client = await mcpClient(opts);
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

/** The text of a tool answer's text blocks. */
export function textOf(result: { content?: unknown }): string {
  return ((result.content as { type: string; text?: string }[]) ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");
}

/** Turns the AI switch of a published API in `production` on or off (plain SQL, as an admin's change would). */
export async function setAiSwitch(slug: string, on: boolean): Promise<void> {
  await sql().query(
    `UPDATE environment_api ea SET "aiAccess" = $2 FROM flow_api f, environment e
     WHERE ea."flowApiId" = f.id AND ea."environmentId" = e.id AND e.slug = 'production' AND f.slug = $1`,
    [slug, on],
  );
}

/** A reverse proxy to the app that adds `X-Api-Key` and forwards everything else as is (the Host header too). */
export async function keyProxy(key: string): Promise<{ url: (path: string) => string; close: () => Promise<void> }> {
  const target = new URL(BASE_URL);
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, "x-api-key": key } },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://localhost:${port}${path}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
