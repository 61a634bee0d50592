import { scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { MIN_PASSWORD_LENGTH, hashPassword, verifyAgainstDummy, verifyPassword } from "@/lib/users/password";

describe("password hashing (scrypt)", () => {
  it("stores scrypt with its parameters, salt and key, and the key is scrypt of the password", async () => {
    const stored = await hashPassword("correct horse battery staple");
    const [scheme, n, r, p, salt, key] = stored.split("$");
    expect(scheme).toBe("scrypt");
    expect(Number(n)).toBeGreaterThanOrEqual(2 ** 15); // OWASP minimum for scrypt
    const independent = scryptSync("correct horse battery staple", Buffer.from(salt!, "base64"), Buffer.from(key!, "base64").length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: 256 * Number(n) * Number(r),
    });
    expect(independent.toString("base64")).toBe(key);
    expect(Buffer.from(salt!, "base64").length).toBeGreaterThanOrEqual(16);
  });

  it("verifies the right password only", async () => {
    const stored = await hashPassword("s3cret-pass");
    expect(await verifyPassword("s3cret-pass", stored)).toBe(true);
    expect(await verifyPassword("s3cret-pasS", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("salts each hash", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });

  it("treats a malformed hash as no match, and the dummy check never matches", async () => {
    for (const bad of ["", "plain", "scrypt$1$2$3", "bcrypt$a$b$c$d$e", "scrypt$x$8$1$AAAA$"]) expect(await verifyPassword("x", bad), bad).toBe(false);
    expect(await verifyAgainstDummy("anything")).toBe(false);
  });

  it("asks for at least 8 characters (NIST SP 800-63B)", () => {
    expect(MIN_PASSWORD_LENGTH).toBeGreaterThanOrEqual(8);
  });
});
