/**
 * Renames a consumer; its slug, keys and grants stay. Errors: `not_found` (not in this
 * environment), `validation_failed` at `/name`.
 */
import "server-only";
import { db } from "@/lib/db";
import { parseField } from "@/lib/errors/zod-issues";
import { getConsumerOrThrow } from "@/lib/consumers/get-consumer-or-throw";
import { ZConsumerName } from "@/lib/consumers/consumer-name";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export async function renameConsumer(scope: TEnvironmentRef, consumerId: string, name: string) {
  const parsed = parseField(ZConsumerName, name, "/name", "invalid_name");
  await getConsumerOrThrow(scope, consumerId);
  return db.consumer.update({ where: { id: consumerId }, data: { name: parsed } });
}
