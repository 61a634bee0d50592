/**
 * A fresh demo database for tests and benchmarks: the database at `url` (local only) is
 * emptied, migrated, and seeded with the demo workspace and two newly generated keys (and
 * the demo users, with `forcedUsers` when given).
 * Returns the keys of `demo-consumer` and `other-consumer`.
 */
import { prepareSchema } from "./prepare-schema";
import { resetDatabase } from "@/lib/database/reset";
import { generateApiKey } from "@/lib/keys/api-key";
import type { TForcedDemoUsers } from "@/lib/users/demo-users";

export async function freshDemoDatabase(
  url: string,
  keyFile: string,
  log: (m: string) => void,
  forcedUsers?: TForcedDemoUsers,
): Promise<{ demo: string; other: string }> {
  await resetDatabase(url);
  await prepareSchema(url, log);
  process.env.DATABASE_URL = url;
  const keys = { demo: generateApiKey(), other: generateApiKey() };
  const { seedDemo } = await import("@/lib/demo/seed");
  // The suites and benchmarks call the demo APIs thousands of times a minute: far above the
  // demo plan's 600 (README); rate limiting itself is tested on plans of its own.
  await seedDemo({ keyFile, forcedKeys: { "demo-consumer": keys.demo, "other-consumer": keys.other }, forcedUsers, rateLimitPerMinute: 600_000 });
  return keys;
}
