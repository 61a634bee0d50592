/**
 * Creates a consumer (a caller of the environment's APIs) with a name; its slug is derived
 * from the name and made unique in the environment (`acme`, `acme-2`, ...). A new consumer
 * has no keys and no grants. Errors: `validation_failed` at `/name` for a bad name.
 */
import "server-only";
import { db } from "@/lib/db";
import { parseField } from "@/lib/errors/zod-issues";
import { slugify, ZConsumerName } from "@/lib/consumers/consumer-name";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export async function createConsumer(scope: TEnvironmentRef, input: { name: string }) {
  const name = parseField(ZConsumerName, input.name, "/name", "invalid_name");
  const base = slugify(name) || "consumer";
  const taken = new Set(
    (await db.consumer.findMany({ where: { environmentId: scope.environmentId, slug: { startsWith: base } }, select: { slug: true } })).map((c) => c.slug),
  );
  let slug = base;
  for (let i = 2; taken.has(slug); i++) slug = `${base}-${i}`;
  return db.consumer.create({ data: { environmentId: scope.environmentId, name, slug } });
}
