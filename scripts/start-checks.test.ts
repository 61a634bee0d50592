// The checks npm start makes before it starts anything: demo keys in the key format, a free port.
import net from "node:net";
import { describe, expect, it } from "vitest";
import { StartupError } from "@/lib/database/startup-error";
import { generateApiKey } from "@/lib/keys/api-key";
import { checkPortFree, demoKeysFromEnv } from "./start-checks";

describe("demoKeysFromEnv", () => {
  it("accepts keys in the key format and ignores unset or empty variables", () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(demoKeysFromEnv({ DEMO_API_KEY: a, DEMO_OTHER_API_KEY: b })).toEqual({ "demo-consumer": a, "other-consumer": b });
    expect(demoKeysFromEnv({ DEMO_API_KEY: "" })).toEqual({});
    expect(demoKeysFromEnv({})).toEqual({});
  });

  it.each(["secret", "fapi_short", `fapi_${"a".repeat(31)}-`, `FAPI_${"a".repeat(32)}`, ` fapi_${"a".repeat(32)}`])(
    "refuses %j naming the variable and the format",
    (bad) => {
      const err = (() => {
        try {
          demoKeysFromEnv({ DEMO_OTHER_API_KEY: bad });
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(StartupError);
      expect((err as Error).message).toMatch(/^DEMO_OTHER_API_KEY is not an API key: a key is "fapi_" followed by 32 letters and digits/);
      expect((err as Error).message).not.toContain(bad.trim());
    },
  );

  it("refuses the same key for both consumers", () => {
    const k = generateApiKey();
    expect(() => demoKeysFromEnv({ DEMO_API_KEY: k, DEMO_OTHER_API_KEY: k })).toThrow(StartupError);
  });
});

describe("checkPortFree", () => {
  it("passes for a free port and refuses one in use, naming it and PORT", async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      await expect(checkPortFree(port, "127.0.0.1")).rejects.toThrow(new RegExp(`^Port ${port} is already in use .*PORT=`));
      await expect(checkPortFree(port, "0.0.0.0")).rejects.toBeInstanceOf(StartupError);
    } finally {
      await new Promise((r) => server.close(r));
    }
    await expect(checkPortFree(port, "127.0.0.1")).resolves.toBeUndefined();
  });
});
