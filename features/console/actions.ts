"use server";
/**
 * The serving console's server actions. Each goes through `adminAction` (signed in, admin of
 * the input's organization, checked in the database) and calls one domain function with the
 * plain `TEnvironmentRef` of the input's environment; domain errors come back as
 * `serverError` (field errors keyed by JSON Pointer).
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

/**
 * An admin action on one environment named by the input (`name` in the logs): `run` gets the
 * environment, resolved with `requireEnvironment`, and the parsed input.
 */
function environmentAction<S extends z.ZodType<{ organization: string; environment: string }>, R>(
  name: string,
  schema: S,
  run: (environment: TEnvironmentRef, input: z.output<S>) => Promise<R>,
) {
  return adminAction
    .metadata({ name })
    .inputSchema(schema)
    .action(async ({ parsedInput }) => {
      const scope = await requireEnvironment(parsedInput);
      return run({ organizationId: scope.organizationId, environmentId: scope.environment.id }, parsedInput as z.output<S>);
    });
}

export const createConsumerAction = environmentAction("create-consumer", ZCreateConsumer, async (env, input) => {
  const c = await createConsumer(env, { name: input.name });
  return { id: c.id, slug: c.slug, name: c.name };
});

export const renameConsumerAction = environmentAction("rename-consumer", ZRenameConsumer, async (env, input) => {
  const c = await renameConsumer(env, input.consumerId, input.name);
  return { id: c.id, name: c.name };
});

export const deleteConsumerAction = environmentAction("delete-consumer", ZEnvironmentInput.extend({ consumerId: z.uuid() }), (env, input) =>
  deleteConsumer(env, input.consumerId),
);

export const createKeyAction = environmentAction("create-key", ZCreateKey, async (env, input) => {
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  const k = await createApiKey(env, { consumerId: input.consumerId, name: input.name, expiresAt });
  return { id: k.id, name: k.name, prefix: k.prefix, secret: k.secret, expiresAt: k.expiresAt?.toISOString() ?? null };
});

export const revokeKeyAction = environmentAction("revoke-key", ZEnvironmentInput.extend({ keyId: z.uuid() }), (env, input) => revokeApiKey(env, input.keyId));

export const revokeOauthClientAction = environmentAction("revoke-oauth-client", ZEnvironmentInput.extend({ authorizationId: z.uuid() }), (env, input) =>
  revokeOauthClient(env, input.authorizationId),
);

export const rotateKeyAction = environmentAction("rotate-key", ZRotateKey, async (env, input) => {
  const r = await rotateApiKey(env, input.keyId, { overlapMinutes: input.overlapMinutes });
  return { id: r.newKey.id, name: r.newKey.name, prefix: r.newKey.prefix, secret: r.newKey.secret, oldKeyExpiresAt: r.oldKeyExpiresAt.toISOString() };
});

export const setGrantAction = environmentAction(
  "set-grant",
  ZEnvironmentInput.extend({ consumerId: z.uuid(), flowApiId: z.uuid(), granted: z.boolean() }),
  (env, input) => setGrant(env, input),
);

export const setLayerReadableAction = environmentAction(
  "set-layer-readable",
  ZEnvironmentInput.extend({ workspaceId: z.uuid(), layerId: z.string().min(1), readable: z.boolean() }),
  (env, input) => setLayerReadable(env, input),
);

export const setAiAccessAction = environmentAction("set-ai-access", ZEnvironmentInput.extend({ flowApiId: z.uuid(), enabled: z.boolean() }), (env, input) =>
  setAiAccess({ environmentId: env.environmentId, flowApiId: input.flowApiId, enabled: input.enabled }),
);

/**
 * Sets one of the environment's lists: the browser origins allowed to call its public API
 * (CORS), or the hosts its webhooks, callbacks and inputs by URL may reach over http or on
 * private addresses.
 */
export const updateEnvironmentListAction = environmentAction("update-environment-list", ZUpdateEnvironmentList, async (env, input) => {
  const set = input.list === "origins" ? setCorsOrigins : setOutboundHosts;
  const items = await set(env.environmentId, input.items);
  revalidatePath(consolePath(input.organization, input.environment, "settings"));
  return { items };
});

/** Adds a webhook endpoint to a consumer; the answer carries its signing secret, shown once. */
export const createWebhookAction = environmentAction("create-webhook", ZCreateWebhook, (env, input) =>
  createWebhookEndpoint(env, input.consumerId, { url: input.url, events: input.events }),
);

export const enableWebhookAction = environmentAction("enable-webhook", ZEnvironmentInput.extend({ endpointId: z.uuid() }), (env, input) =>
  enableWebhookEndpoint(env, input.endpointId),
);

export const deleteWebhookAction = environmentAction("delete-webhook", ZEnvironmentInput.extend({ endpointId: z.uuid() }), (env, input) =>
  deleteWebhookEndpoint(env, input.endpointId),
);
