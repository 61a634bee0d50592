/**
 * Renames a consumer; its slug, keys and grants stay. Errors: `not_found` (not in this
 * environment), `validation_failed` at `/name`.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getConsumerOrThrow } from "@/lib/consumers/get-consumer-or-throw";
import { ZConsumerName } from "@/lib/consumers/consumer-name";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export async function renameConsumer(scope: TEnvironmentRef, consumerId: string, name: string) {
  const parsed = ZConsumerName.safeParse(name);
  if (!parsed.success) {
    throw new AppError("validation_failed", parsed.error.issues[0].message, {
      errors: [{ field: "/name", code: "invalid_name", message: parsed.error.issues[0].message }],
    });
  }
  await getConsumerOrThrow(scope, consumerId);
  return db.consumer.update({ where: { id: consumerId }, data: { name: parsed.data } });
}
