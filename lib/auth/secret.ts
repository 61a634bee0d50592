/**
 * The secret that signs and encrypts session tokens (next-auth's `AUTH_SECRET`). When the
 * variable is unset, a random 32-byte secret is generated once into `.data/auth-secret`
 * (git-ignored, mode 0600) and read from there on later starts, like the demo keys: sessions
 * survive restarts without any set-up. Set `AUTH_SECRET` yourself when several machines
 * serve the app.
 */
import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

let remembered: string | undefined;

/** `AUTH_SECRET` when set, else the remembered or a newly generated secret (`root`: the project folder, default the working one). */
export function authSecret(root?: string): string {
  const fromEnv = process.env.AUTH_SECRET;
  if (fromEnv) return fromEnv;
  remembered ??= secretFromFile(root);
  return remembered;
}

function secretFromFile(root?: string): string {
  const file = path.join(root ?? process.cwd(), ".data", "auth-secret");
  try {
    const saved = fs.readFileSync(file, "utf8").trim();
    if (saved.length >= 32) return saved;
  } catch {
    // not generated yet
  }
  const secret = randomBytes(32).toString("base64url");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, secret + "\n", { mode: 0o600 });
  return secret;
}
