/** An API key of a consumer of the environment, or AppError `not_found`. */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export async function getApiKeyOrThrow(scope: TEnvironmentRef, keyId: string) {
  const key = await db.apiKey.findFirst({ where: { id: keyId, consumer: { environmentId: scope.environmentId } } });
  if (!key) throw new AppError("not_found", "No such key in this environment.");
  return key;
}
