/**
 * Deletes a consumer with its keys, grants and runs (foreign keys cascade). Its keys stop
 * working on the very next call in every web process: the delete fires the `auth_changed`
 * NOTIFY that empties the caller caches (lib/keys/caller-cache.ts). Errors: `not_found`.
 */
import "server-only";
import { db } from "@/lib/db";
import { getConsumerOrThrow } from "@/lib/consumers/get-consumer-or-throw";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export async function deleteConsumer(scope: TEnvironmentRef, consumerId: string): Promise<void> {
  await getConsumerOrThrow(scope, consumerId);
  await db.consumer.delete({ where: { id: consumerId } });
}
