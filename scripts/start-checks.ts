/**
 * Checks `npm start` (and `npm run db:seed`) make before they start anything, so that a user's
 * mistake ends in one sentence with the fix instead of a stack trace later on:
 *
 * - `demoKeysFromEnv`: `DEMO_API_KEY` / `DEMO_OTHER_API_KEY` must have the key format
 *   (`fapi_` + 32 base62 characters), or the printed key would be refused with 401 on every call.
 * - `checkPortFree`: the web server's port must be free.
 * - `reportStartupFailure`: prints a `StartupError` as its message alone, anything else (a bug)
 *   with its stack.
 */
import { portInUse } from "@/lib/database/embedded";
import { StartupError } from "@/lib/database/startup-error";
import { KEY_PATTERN } from "@/lib/keys/api-key";

export const DEMO_KEY_VARIABLES = { DEMO_API_KEY: "demo-consumer", DEMO_OTHER_API_KEY: "other-consumer" } as const;

/**
 * The demo keys forced by the environment, by consumer.
 * @throws StartupError naming the variable and the format when one does not fit it.
 */
export function demoKeysFromEnv(
  env: Record<string, string | undefined>,
): Partial<Record<(typeof DEMO_KEY_VARIABLES)[keyof typeof DEMO_KEY_VARIABLES], string>> {
  const out: Partial<Record<(typeof DEMO_KEY_VARIABLES)[keyof typeof DEMO_KEY_VARIABLES], string>> = {};
  const bad: string[] = [];
  for (const [variable, consumer] of Object.entries(DEMO_KEY_VARIABLES)) {
    const value = env[variable];
    if (value === undefined || value === "") continue;
    if (!KEY_PATTERN.test(value)) bad.push(variable);
    else out[consumer] = value;
  }
  if (bad.length) {
    throw new StartupError(
      `${bad.join(" and ")} ${bad.length > 1 ? "are" : "is"} not an API key: a key is "fapi_" followed by 32 letters and digits (A-Z, a-z, 0-9), e.g. fapi_0123456789abcdefghijABCDEFGHIJ01; fix it, or unset it to get a generated key.`,
    );
  }
  if (out["demo-consumer"] && out["demo-consumer"] === out["other-consumer"]) {
    throw new StartupError("DEMO_API_KEY and DEMO_OTHER_API_KEY are the same key; each demo consumer needs its own.");
  }
  return out;
}

/** @throws StartupError when something already listens on `host:port`. */
export async function checkPortFree(port: number, host: string): Promise<void> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new StartupError(`PORT must be a port number (1-65535), not "${port}".`);
  const probe = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  if (await portInUse(port, probe)) {
    throw new StartupError(
      `Port ${port} is already in use (is the app already running?); stop that program, or start this one on another port with PORT=<port>.`,
    );
  }
}

/** Prints why start-up failed: a StartupError's sentence alone, any other error (a bug) with its stack. */
export function reportStartupFailure(err: unknown, prefix: string): void {
  if (err instanceof StartupError) console.error(`${prefix} ${err.message}`);
  else console.error(`${prefix} start-up failed because of an unexpected error:`, err);
}
