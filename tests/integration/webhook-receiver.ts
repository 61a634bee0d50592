/**
 * A local webhook receiver for the integration tests: an HTTP server on 127.0.0.1 (reached
 * through an environment's outbound allow-list) that records every request and answers each
 * path with the statuses queued for it (then 200), or a redirect.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface TReceived {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface TReceiver {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  received: TReceived[];
  /** Answers the next requests to `path` with these statuses, in order (then 200). */
  answer(path: string, ...statuses: number[]): void;
  /** Answers every request to `path` with `status`. */
  always(path: string, status: number): void;
  /** Answers requests to `path` with a 302 to `location`. */
  redirect(path: string, location: string): void;
  /** The requests to `path` so far. */
  to(path: string): TReceived[];
  close(): Promise<void>;
}

/** What the receiver answers in its body: longer than the 200 bytes the service keeps. */
export const RECEIVER_BODY = `received ${"x".repeat(400)}`;

export async function startReceiver(): Promise<TReceiver> {
  const queued = new Map<string, number[]>();
  const fixed = new Map<string, number>();
  const redirects = new Map<string, string>();
  const received: TReceived[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString("utf8") });
      const location = redirects.get(path);
      if (location) {
        res.writeHead(302, { location });
        res.end();
        return;
      }
      const status = queued.get(path)?.shift() ?? fixed.get(path) ?? 200;
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(RECEIVER_BODY);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    answer: (path, ...statuses) => queued.set(path, statuses),
    always: (path, status) => fixed.set(path, status),
    redirect: (path, location) => redirects.set(path, location),
    to: (path) => received.filter((r) => r.path === path),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
