/**
 * Password hashing with scrypt (node:crypto, RFC 7914). A stored hash is one string,
 * `scrypt$<N>$<r>$<p>$<salt base64>$<key base64>`, so the cost can be raised later without
 * breaking old hashes. Parameters follow OWASP's password storage cheat sheet (N = 2^15,
 * r = 8, p = 1: 32 MiB and about 50-100 ms per hash here).
 *
 * `verifyPassword` compares in constant time; `verifyAgainstDummy` spends the same time
 * for an email that has no account, so timing does not reveal which emails exist.
 */
import "server-only";
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;
/** Room for N = 2^15, r = 8 (128 * N * r = 32 MiB) plus headroom. */
const MAX_MEM = 64 * 1024 * 1024;

/** Shortest password accepted when setting one (NIST SP 800-63B: at least 8). */
export const MIN_PASSWORD_LENGTH = 8;

function derive(password: string, salt: Buffer, keyLength: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password.normalize("NFKC"), salt, keyLength, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

/** A new salted hash of `password`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, KEY_BYTES, { N, r: R, p: P, maxmem: MAX_MEM });
  return ["scrypt", N, R, P, salt.toString("base64"), key.toString("base64")].join("$");
}

/** True when `password` matches `stored`; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], "base64");
  const expected = Buffer.from(parts[5], "base64");
  if (!Number.isInteger(n) || !Number.isInteger(r) || !Number.isInteger(p) || expected.length === 0) return false;
  const key = await derive(password, salt, expected.length, { N: n, r, p, maxmem: Math.max(MAX_MEM, 256 * n * r) });
  return timingSafeEqual(key, expected);
}

let dummy: Promise<string> | undefined;

/** Spends the time of one verification and returns false (for unknown emails). */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummy ??= hashPassword(randomBytes(16).toString("hex"));
  await verifyPassword(password, await dummy);
  return false;
}
