/**
 * The browser origins an environment lets call its public API (CORS), from
 * `environment.corsOrigins`: empty (the default) allows none, `"*"` allows any. Cached per
 * process and emptied at once by the `auth_changed` notification the environment table's
 * trigger sends, like resolved API keys (lib/keys/caller-cache.ts).
 */
import "server-only";
import { db } from "@/lib/db";
import { cachedCaller } from "@/lib/keys/caller-cache";

/** `{organization}/{environment}` as the public doors read it per request; null when there is none. */
async function publicEnvironment(organization: string, environment: string): Promise<{ corsOrigins: string[] } | null> {
  return cachedCaller(`cors|${organization}|${environment}`, async () => {
    const env = await db.environment.findFirst({ where: { slug: environment, organization: { slug: organization } }, select: { corsOrigins: true } });
    return { value: env, keyExpiresAt: null };
  });
}

/** Allowed origins of `{organization}/{environment}`; [] when there is no such environment. */
export async function corsOrigins(organization: string, environment: string): Promise<string[]> {
  return (await publicEnvironment(organization, environment))?.corsOrigins ?? [];
}

/** Whether `{organization}/{environment}` exists (the same cached lookup as `corsOrigins`). */
export async function environmentExists(organization: string, environment: string): Promise<boolean> {
  return (await publicEnvironment(organization, environment)) !== null;
}
