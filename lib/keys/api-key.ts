/**
 * API key secrets. Format: `fapi_` + 32 base62 characters (about 190 bits of randomness
 * from the CSPRNG). Only the SHA-256 hex digest is stored; the console shows the secret
 * once and the first 12 characters (`prefix`) afterwards.
 */
import { createHash, randomInt } from "node:crypto";

export const KEY_PREFIX = "fapi_";
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_CHARS = 32;
/** Shape accepted by the key check; anything else is rejected before a database lookup. */
export const KEY_PATTERN = /^fapi_[0-9A-Za-z]{32}$/;

/** A new random secret. */
export function generateApiKey(): string {
  let s = KEY_PREFIX;
  for (let i = 0; i < RANDOM_CHARS; i++) s += ALPHABET[randomInt(ALPHABET.length)];
  return s;
}

/** SHA-256 hex digest of a secret, as stored in `api_key.hash`. */
export function hashApiKey(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** The short visible part of a key. */
export function keyPrefix(secret: string): string {
  return secret.slice(0, 12);
}
