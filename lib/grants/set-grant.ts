/**
 * Gives a consumer access to a Flow API of the organization, or takes it away. The change
 * reaches every web process on the next call (the `access_grant` trigger sends NOTIFY
 * `auth_changed`): without a grant the consumer's keys get 403 on that API, and its MCP tool
 * disappears. Granting twice or removing a missing grant changes nothing.
 *
 * Errors: `not_found` for a consumer outside the environment or an API outside the
 * organization.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getConsumerOrThrow } from "@/lib/consumers/get-consumer-or-throw";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export async function setGrant(scope: TEnvironmentRef, input: { consumerId: string; flowApiId: string; granted: boolean }): Promise<{ granted: boolean }> {
  await getConsumerOrThrow(scope, input.consumerId);
  const api = await db.flowApi.findFirst({ where: { id: input.flowApiId, organizationId: scope.organizationId, deletedAt: null }, select: { id: true } });
  if (!api) throw new AppError("not_found", "No such API in this organization.");
  const id = { consumerId_flowApiId: { consumerId: input.consumerId, flowApiId: input.flowApiId } };
  if (input.granted) await db.accessGrant.upsert({ where: id, create: { consumerId: input.consumerId, flowApiId: input.flowApiId }, update: {} });
  else await db.accessGrant.deleteMany({ where: { consumerId: input.consumerId, flowApiId: input.flowApiId } });
  return { granted: input.granted };
}
