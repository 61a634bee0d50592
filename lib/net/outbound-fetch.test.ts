import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkOutboundUrl, isPublicAddress, outboundFetch, OutboundUrlError, readFirstBytes } from "@/lib/net/outbound-fetch";

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/to-localhost") {
      res.writeHead(302, { location: `http://localhost:${port}/ok` }).end();
    } else if (req.url === "/loop") {
      res.writeHead(302, { location: "/loop" }).end();
    } else if (req.url === "/hop") {
      res.writeHead(307, { location: "/ok" }).end();
    } else if (req.url === "/slow") {
      setTimeout(() => res.end("late"), 2000);
    } else {
      res.end("x".repeat(10_000));
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const opts = (allowHosts: string[] = ["127.0.0.1"]) => ({ allowHosts, timeoutMs: 1000 });

describe("checkOutboundUrl", () => {
  it("accepts public https and refuses other schemes, user info and private literals", () => {
    expect(checkOutboundUrl("https://example.com/hook", []).host).toBe("example.com");
    expect(() => checkOutboundUrl("http://example.com/", [])).toThrow(/Only https/);
    expect(() => checkOutboundUrl("ftp://example.com/", ["example.com"])).toThrow(/Only https/);
    expect(() => checkOutboundUrl("https://u:p@example.com/", [])).toThrow(/user name/);
    for (const host of ["127.0.0.1", "10.1.2.3", "192.168.0.1", "169.254.169.254", "[::1]", "[fd00::1]", "[::ffff:127.0.0.1]", "0.0.0.0"]) {
      expect(() => checkOutboundUrl(`https://${host}/`, []), host).toThrow(OutboundUrlError);
    }
    expect(checkOutboundUrl("http://127.0.0.1:8080/", ["127.0.0.1"]).port).toBe("8080");
    expect(() => checkOutboundUrl("not a url", [])).toThrow(/absolute URL/);
  });

  it("tells public unicast addresses from the rest", () => {
    expect(isPublicAddress("8.8.8.8")).toBe(true);
    expect(isPublicAddress("2606:4700::1111")).toBe(true);
    expect(isPublicAddress("100.64.0.1")).toBe(false);
    expect(isPublicAddress("::ffff:10.0.0.1")).toBe(false);
  });
});

describe("outboundFetch", () => {
  it("reaches an allow-listed host, following a checked redirect", async () => {
    const res = await outboundFetch(`http://127.0.0.1:${port}/hop`, opts());
    expect(res.status).toBe(200);
    expect(await readFirstBytes(res, 16)).toBe("x".repeat(16));
  });

  it("refuses a redirect to a host the allow-list does not name", async () => {
    await expect(outboundFetch(`http://127.0.0.1:${port}/to-localhost`, opts())).rejects.toThrow(/Only https/);
  });

  it("refuses a name that resolves to a loopback address at connect time", async () => {
    await expect(outboundFetch(`http://localhost:${port}/ok`, opts(["localhost-not"]))).rejects.toThrow(OutboundUrlError);
    await expect(outboundFetch(`https://localhost:${port}/ok`, opts([]))).rejects.toThrow(/resolves to .*loopback|private/);
  });

  it("follows no redirect when told so", async () => {
    await expect(outboundFetch(`http://127.0.0.1:${port}/hop`, { ...opts(), maxRedirects: 0 })).rejects.toThrow(/not followed/);
  });

  it("stops after too many redirects and at the time limit", async () => {
    await expect(outboundFetch(`http://127.0.0.1:${port}/loop`, opts())).rejects.toThrow(/redirects/);
    await expect(outboundFetch(`http://127.0.0.1:${port}/slow`, { allowHosts: ["127.0.0.1"], timeoutMs: 200 })).rejects.toThrow(/timeout|aborted/i);
  });
});
