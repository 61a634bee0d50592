import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey, keyPrefix, KEY_PATTERN } from "./api-key";

describe("api keys", () => {
  it("have the documented format and are unique", () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
    for (const k of keys) expect(k).toMatch(KEY_PATTERN);
  });
  it("hash to a stable SHA-256 hex digest and show a 12-character prefix", () => {
    const k = "fapi_" + "a".repeat(32);
    expect(hashApiKey(k)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(k)).toBe(hashApiKey(k));
    expect(hashApiKey(k)).not.toBe(hashApiKey(k.replace(/a$/, "b")));
    expect(keyPrefix(k)).toBe("fapi_aaaaaaa");
  });
});
