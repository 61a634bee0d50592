/**
 * Creates a consumer (a caller of the environment's APIs) with a name; its slug is derived
 * from the name and made unique in the environment (`acme`, `acme-2`, ...). A new consumer
 * has no keys and no grants. Errors: `validation_failed` at `/name` for a bad name.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { slugify, ZConsumerName } from "@/lib/consumers/consumer-name";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export async function createConsumer(scope: TEnvironmentRef, input: { name: string }) {
  const parsed = ZConsumerName.safeParse(input.name);
  if (!parsed.success) {
    throw new AppError("validation_failed", parsed.error.issues[0].message, {
      errors: [{ field: "/name", code: "invalid_name", message: parsed.error.issues[0].message }],
    });
  }
  const name = parsed.data;
  const base = slugify(name) || "consumer";
  const taken = new Set(
    (await db.consumer.findMany({ where: { environmentId: scope.environmentId, slug: { startsWith: base } }, select: { slug: true } })).map((c) => c.slug),
  );
  let slug = base;
  for (let i = 2; taken.has(slug); i++) slug = `${base}-${i}`;
  return db.consumer.create({ data: { environmentId: scope.environmentId, name, slug } });
}
