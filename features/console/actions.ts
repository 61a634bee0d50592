"use server";
/**
 * The serving console's server actions. Each goes through `adminAction` (signed in, admin of
 * the input's organization, checked in the database), resolves the environment with
 * `requireEnvironment` and calls one domain function with the plain `TEnvironmentRef`;
 * domain errors come back as `serverError` (field errors keyed by JSON Pointer).
 */
import { z } from "zod";
import { revalidatePath } from "next/cache";
import { setCorsOrigins } from "@/lib/keys/set-cors-origins";
import { consolePath } from "@/features/shell/routes";
import { adminAction } from "@/lib/auth/action-client";
import { requireEnvironment } from "@/lib/auth/session";
import type { TEnvironmentRef } from "@/lib/runs/scope";
import { createConsumer } from "@/lib/consumers/create-consumer";
import { renameConsumer } from "@/lib/consumers/rename-consumer";
import { deleteConsumer } from "@/lib/consumers/delete-consumer";
import { createApiKey } from "@/lib/keys/create-api-key";
import { revokeApiKey } from "@/lib/keys/revoke-api-key";
import { rotateApiKey } from "@/lib/keys/rotate-api-key";
import { revokeOauthClient } from "@/lib/oauth/authorizations";
import { setGrant } from "@/lib/grants/set-grant";
import { setLayerReadable } from "@/lib/serving/environment-layers";
import { setAiAccess } from "@/lib/serving/set-ai-access";
import { setOutboundHosts } from "@/lib/net/outbound-hosts";
import { createWebhookEndpoint, deleteWebhookEndpoint, enableWebhookEndpoint } from "@/lib/webhooks/webhook-endpoints";
import {
  ZCreateConsumer,
  ZCreateKey,
  ZCreateWebhook,
  ZEnvironmentInput,
  ZRenameConsumer,
  ZRotateKey,
  ZUpdateEnvironmentList,
} from "@/features/console/schemas";

async function environmentOf(input: { organization: string; environment: string }): Promise<TEnvironmentRef> {
  const scope = await requireEnvironment(input);
  return { organizationId: scope.organizationId, environmentId: scope.environment.id };
}

export const createConsumerAction = adminAction
  .metadata({ name: "create-consumer" })
  .inputSchema(ZCreateConsumer)
  .action(async ({ parsedInput }) => {
    const c = await createConsumer(await environmentOf(parsedInput), { name: parsedInput.name });
    return { id: c.id, slug: c.slug, name: c.name };
  });

export const renameConsumerAction = adminAction
  .metadata({ name: "rename-consumer" })
  .inputSchema(ZRenameConsumer)
  .action(async ({ parsedInput }) => {
    const c = await renameConsumer(await environmentOf(parsedInput), parsedInput.consumerId, parsedInput.name);
    return { id: c.id, name: c.name };
  });

export const deleteConsumerAction = adminAction
  .metadata({ name: "delete-consumer" })
  .inputSchema(ZEnvironmentInput.extend({ consumerId: z.uuid() }))
  .action(async ({ parsedInput }) => deleteConsumer(await environmentOf(parsedInput), parsedInput.consumerId));

export const createKeyAction = adminAction
  .metadata({ name: "create-key" })
  .inputSchema(ZCreateKey)
  .action(async ({ parsedInput }) => {
    const expiresAt = parsedInput.expiresAt ? new Date(parsedInput.expiresAt) : null;
    const k = await createApiKey(await environmentOf(parsedInput), { consumerId: parsedInput.consumerId, name: parsedInput.name, expiresAt });
    return { id: k.id, name: k.name, prefix: k.prefix, secret: k.secret, expiresAt: k.expiresAt?.toISOString() ?? null };
  });

export const revokeKeyAction = adminAction
  .metadata({ name: "revoke-key" })
  .inputSchema(ZEnvironmentInput.extend({ keyId: z.uuid() }))
  .action(async ({ parsedInput }) => revokeApiKey(await environmentOf(parsedInput), parsedInput.keyId));

export const revokeOauthClientAction = adminAction
  .metadata({ name: "revoke-oauth-client" })
  .inputSchema(ZEnvironmentInput.extend({ authorizationId: z.uuid() }))
  .action(async ({ parsedInput }) => revokeOauthClient(await environmentOf(parsedInput), parsedInput.authorizationId));

export const rotateKeyAction = adminAction
  .metadata({ name: "rotate-key" })
  .inputSchema(ZRotateKey)
  .action(async ({ parsedInput }) => {
    const r = await rotateApiKey(await environmentOf(parsedInput), parsedInput.keyId, { overlapMinutes: parsedInput.overlapMinutes });
    return { id: r.newKey.id, name: r.newKey.name, prefix: r.newKey.prefix, secret: r.newKey.secret, oldKeyExpiresAt: r.oldKeyExpiresAt.toISOString() };
  });

export const setGrantAction = adminAction
  .metadata({ name: "set-grant" })
  .inputSchema(ZEnvironmentInput.extend({ consumerId: z.uuid(), flowApiId: z.uuid(), granted: z.boolean() }))
  .action(async ({ parsedInput }) => setGrant(await environmentOf(parsedInput), parsedInput));

export const setLayerReadableAction = adminAction
  .metadata({ name: "set-layer-readable" })
  .inputSchema(ZEnvironmentInput.extend({ workspaceId: z.uuid(), layerId: z.string().min(1), readable: z.boolean() }))
  .action(async ({ parsedInput }) => setLayerReadable(await environmentOf(parsedInput), parsedInput));

export const setAiAccessAction = adminAction
  .metadata({ name: "set-ai-access" })
  .inputSchema(ZEnvironmentInput.extend({ flowApiId: z.uuid(), enabled: z.boolean() }))
  .action(async ({ parsedInput }) => {
    const scope = await environmentOf(parsedInput);
    return setAiAccess({ environmentId: scope.environmentId, flowApiId: parsedInput.flowApiId, enabled: parsedInput.enabled });
  });

/**
 * Sets one of the environment's lists: the browser origins allowed to call its public API
 * (CORS), or the hosts its webhooks, callbacks and inputs by URL may reach over http or on
 * private addresses.
 */
export const updateEnvironmentListAction = adminAction
  .metadata({ name: "update-environment-list" })
  .inputSchema(ZUpdateEnvironmentList)
  .action(async ({ parsedInput }) => {
    const scope = await requireEnvironment(parsedInput);
    const set = parsedInput.list === "origins" ? setCorsOrigins : setOutboundHosts;
    const items = await set(scope.environment.id, parsedInput.items);
    revalidatePath(consolePath(scope.organizationSlug, scope.environment.slug, "settings"));
    return { items };
  });

/** Adds a webhook endpoint to a consumer; the answer carries its signing secret, shown once. */
export const createWebhookAction = adminAction
  .metadata({ name: "create-webhook" })
  .inputSchema(ZCreateWebhook)
  .action(async ({ parsedInput }) =>
    createWebhookEndpoint(await environmentOf(parsedInput), parsedInput.consumerId, { url: parsedInput.url, events: parsedInput.events }),
  );

export const enableWebhookAction = adminAction
  .metadata({ name: "enable-webhook" })
  .inputSchema(ZEnvironmentInput.extend({ endpointId: z.uuid() }))
  .action(async ({ parsedInput }) => enableWebhookEndpoint(await environmentOf(parsedInput), parsedInput.endpointId));

export const deleteWebhookAction = adminAction
  .metadata({ name: "delete-webhook" })
  .inputSchema(ZEnvironmentInput.extend({ endpointId: z.uuid() }))
  .action(async ({ parsedInput }) => deleteWebhookEndpoint(await environmentOf(parsedInput), parsedInput.endpointId));
