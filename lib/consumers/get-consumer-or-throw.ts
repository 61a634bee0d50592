/**
 * A consumer of one environment, or AppError `not_found` (also for a consumer of another
 * environment, so ids of other tenants reveal nothing).
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export async function getConsumerOrThrow(scope: TEnvironmentRef, consumerId: string) {
  const consumer = await db.consumer.findFirst({ where: { id: consumerId, environmentId: scope.environmentId } });
  if (!consumer) throw new AppError("not_found", "No such consumer in this environment.");
  return consumer;
}
