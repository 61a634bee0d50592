/**
 * The OAuth clients people connected to an environment's consumers (lib/oauth/consent.ts),
 * for the serving console: who authorized which client as which consumer, when, and its
 * last use (written with the keys' "last used", lib/keys/touch-api-key.ts).
 *
 * - `listOauthClients(ref)`: the environment's consents, live ones first, newest first; each
 *   `active`, `revoked` (in the console) or `ended` (its grant is gone: expired, revoked by
 *   the client, or ended by the server when a spent refresh token came back; or the person who
 *   allowed it is no longer a member of the organization).
 * - `revokeOauthClient(ref, id)`: ends a consent: `revokedAt` set and every record of its
 *   grant (the grant, its codes, access and refresh tokens) deleted in one transaction, so
 *   the client's next call is 401 and it must ask again. AppError `not_found` for a consent
 *   of another environment (the same answer as a missing one), `conflict` when already revoked.
 */
import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { recordKey } from "@/lib/oauth/adapter";
import type { TEnvironmentRef } from "@/lib/runs/scope";

export interface TOauthClientItem {
  id: string;
  clientId: string;
  clientName: string;
  consumerId: string;
  consumerName: string;
  authorizedBy: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  state: "active" | "revoked" | "ended";
}

/** The environment's consents (see module doc). */
export async function listOauthClients(ref: TEnvironmentRef): Promise<TOauthClientItem[]> {
  const rows = await db.oauthAuthorization.findMany({
    where: { consumer: { environmentId: ref.environmentId } },
    include: { consumer: { select: { name: true } }, user: { select: { email: true } } },
    orderBy: { createdAt: "desc" },
  });
  const live = new Set(
    (await db.oauthRecord.findMany({ where: { id: { in: rows.map((r) => recordKey("Grant", r.grantId)) } }, select: { id: true } })).map((g) => g.id),
  );
  const members = new Set(
    (await db.membership.findMany({ where: { organizationId: ref.organizationId, userId: { in: rows.map((r) => r.userId) } }, select: { userId: true } })).map(
      (m) => m.userId,
    ),
  );
  const order = { active: 0, ended: 1, revoked: 2 };
  return rows
    .map((r) => ({
      id: r.id,
      clientId: r.clientId,
      clientName: r.clientName,
      consumerId: r.consumerId,
      consumerName: r.consumer.name,
      authorizedBy: r.user.email,
      createdAt: r.createdAt,
      lastUsedAt: r.lastUsedAt,
      state: r.revokedAt ? ("revoked" as const) : live.has(recordKey("Grant", r.grantId)) && members.has(r.userId) ? ("active" as const) : ("ended" as const),
    }))
    .sort((a, b) => order[a.state] - order[b.state]);
}

/** Revokes a consent (see module doc). */
export async function revokeOauthClient(ref: TEnvironmentRef, id: string): Promise<{ revokedAt: Date }> {
  const found = await db.oauthAuthorization.findFirst({ where: { id, consumer: { environmentId: ref.environmentId } } });
  if (!found) throw new AppError("not_found", "No such authorized client in this environment.");
  if (found.revokedAt) throw new AppError("conflict", "This client's authorization is already revoked.");
  const revokedAt = new Date();
  await db.$transaction([
    db.oauthAuthorization.update({ where: { id }, data: { revokedAt } }),
    db.oauthRecord.deleteMany({ where: { OR: [{ grantId: found.grantId }, { id: recordKey("Grant", found.grantId) }] } }),
  ]);
  return { revokedAt };
}
