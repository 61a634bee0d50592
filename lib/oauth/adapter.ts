/**
 * oidc-provider's storage adapter on Postgres (`oauth_record`, Prisma), so every web process
 * sees the same clients, grants, codes and tokens (oidc-provider "Adapter" interface:
 * upsert, find, findByUid, findByUserCode, consume, destroy, revokeByGrantId).
 *
 * Nothing that works as a bearer secret is stored in the clear: a row's key is the SHA-256
 * of "<model>:<id>" (an opaque access token, refresh token or authorization code IS its id),
 * and the payload is stored without its `jti`, which `find` puts back from the id it was
 * asked for.
 *
 * A `Client` whose id is an https URL is a Client ID Metadata Document (draft
 * ietf-oauth-client-id-metadata-document, MCP authorization 2025-11-25): `find` fetches it
 * (lib/oauth/client-metadata-document.ts) and keeps it for its cache lifetime.
 */
import "server-only";
import { createHash } from "node:crypto";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { fetchClientMetadataDocument, isClientMetadataDocumentId } from "@/lib/oauth/client-metadata-document";

type TPayload = Record<string, unknown>;

/** The row key of `id` in `model` (see module doc). */
export function recordKey(model: string, id: string): string {
  return createHash("sha256").update(`${model}:${id}`).digest("hex");
}

const live = () => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] });

/** The adapter oidc-provider instantiates once per model name. */
export class PrismaOauthAdapter {
  constructor(private readonly model: string) {}

  async upsert(id: string, payload: TPayload, expiresIn?: number): Promise<void> {
    const { jti: _jti, ...rest } = payload;
    const data = {
      model: this.model,
      payload: rest as Prisma.InputJsonValue,
      grantId: typeof payload.grantId === "string" ? payload.grantId : null,
      uid: typeof payload.uid === "string" ? payload.uid : null,
      userCode: typeof payload.userCode === "string" ? recordKey("userCode", payload.userCode) : null,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    };
    const key = recordKey(this.model, id);
    await db.oauthRecord.upsert({ where: { id: key }, create: { id: key, ...data }, update: data });
  }

  async find(id: string): Promise<TPayload | undefined> {
    const row = await db.oauthRecord.findFirst({ where: { id: recordKey(this.model, id), ...live() } });
    if (row) return this.payloadOf(row, id);
    if (this.model === "Client" && isClientMetadataDocumentId(id)) {
      const metadata = await fetchClientMetadataDocument(id);
      if (metadata) await this.upsert(id, metadata.payload, metadata.maxAgeSeconds);
      return metadata?.payload;
    }
    return undefined;
  }

  async findByUid(uid: string): Promise<TPayload | undefined> {
    const row = await db.oauthRecord.findFirst({ where: { model: this.model, uid, ...live() } });
    // A session's id is only in its cookie; findByUid is asked for the session's own payload.
    return row ? this.payloadOf(row) : undefined;
  }

  async findByUserCode(userCode: string): Promise<TPayload | undefined> {
    const row = await db.oauthRecord.findFirst({ where: { model: this.model, userCode: recordKey("userCode", userCode), ...live() } });
    return row ? (row.payload as TPayload) : undefined;
  }

  async consume(id: string): Promise<void> {
    await db.oauthRecord.updateMany({ where: { id: recordKey(this.model, id) }, data: { consumedAt: new Date() } });
  }

  async destroy(id: string): Promise<void> {
    await db.oauthRecord.deleteMany({ where: { id: recordKey(this.model, id) } });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await db.oauthRecord.deleteMany({ where: { grantId } });
  }

  private payloadOf(row: { payload: unknown; consumedAt: Date | null }, id?: string): TPayload {
    const payload = { ...(row.payload as TPayload) };
    if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
    // Every model but Client is keyed by its jti (a Client by its client_id, in its metadata).
    if (id !== undefined && this.model !== "Client") payload.jti = id;
    return payload;
  }
}
