/**
 * The serving console's access rules (issue 11), each through its domain function (what the
 * console's server actions call) and checked over HTTP against the running app, a separate
 * process: a change must hold on the very next call there (the `auth_changed` NOTIFY empties
 * its caller cache). Consumers: create, rename, delete (keys stop at once). Keys: created
 * secret works and is stored only as a hash; revoke (401); rotate with an overlap (both work)
 * and without (old one stops); expiry; last use. Grants: remove (403), restore (200).
 * Readable layers: remove (422 unknown layer), add back. Scoping: another environment's ids
 * are not found.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiPath, http, sql, waitFor } from "./helpers";
import { createEnvironment, demoIds, expectProblem } from "./contract-helpers";
import { AppError } from "@/lib/errors";
import { hashApiKey, KEY_PATTERN } from "@/lib/keys/api-key";
import { createConsumer } from "@/lib/consumers/create-consumer";
import { renameConsumer } from "@/lib/consumers/rename-consumer";
import { deleteConsumer } from "@/lib/consumers/delete-consumer";
import { listConsumers } from "@/lib/consumers/list-consumers";
import { createApiKey } from "@/lib/keys/create-api-key";
import { revokeApiKey } from "@/lib/keys/revoke-api-key";
import { rotateApiKey } from "@/lib/keys/rotate-api-key";
import { setGrant } from "@/lib/grants/set-grant";
import { listEnvironmentLayers, setLayerReadable } from "@/lib/serving/environment-layers";
import type { TEnvironmentRef } from "@/lib/runs/scope";

const CITIES = apiPath("cities-in-area");
const LIST = `${CITIES}/runs`;
let scope: TEnvironmentRef;
let workspaceId: string;
let citiesApiId: string;

beforeAll(async () => {
  const ids = await demoIds();
  scope = { organizationId: ids.organizationId, environmentId: ids.environmentId };
  workspaceId = ids.workspaceId;
  citiesApiId = (await sql().query(`SELECT id FROM flow_api WHERE slug = 'cities-in-area'`)).rows[0].id;
});
afterAll(async () => {
  const { db } = await import("@/lib/db");
  await db.$disconnect();
});

async function expectAppError(p: Promise<unknown>, code: string): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  return err as AppError;
}

/** A consumer with one key, granted `cities-in-area`, made through the console's domain functions. */
async function consumerWithKey(name = "Console test consumer") {
  const consumer = await createConsumer(scope, { name });
  const key = await createApiKey(scope, { consumerId: consumer.id, name: "server" });
  await setGrant(scope, { consumerId: consumer.id, flowApiId: citiesApiId, granted: true });
  return { consumer, key };
}

describe("consumers", () => {
  it("creates a consumer with a unique slug from its name, renames it, and refuses a bad name", async () => {
    const a = await createConsumer(scope, { name: "Acme Maps GmbH" });
    const b = await createConsumer(scope, { name: "Acme Maps GmbH" });
    expect(a.slug).toMatch(/^acme-maps-gmbh(-\d+)?$/);
    expect(b.slug).not.toBe(a.slug);
    const renamed = await renameConsumer(scope, a.id, "  Acme Maps  ");
    expect(renamed.name).toBe("Acme Maps");
    const err = await expectAppError(renameConsumer(scope, a.id, "   "), "validation_failed");
    expect(err.errors?.[0].field).toBe("/name");
    await expectAppError(createConsumer(scope, { name: "x".repeat(101) }), "validation_failed");
    const listed = (await listConsumers(scope)).find((c) => c.id === a.id);
    expect(listed).toMatchObject({ name: "Acme Maps", keys: [], grantedApiIds: [] });
  });

  it("deleting a consumer stops its keys on the next call", async () => {
    const { consumer, key } = await consumerWithKey();
    expect((await http("GET", LIST, { key: key.secret })).status).toBe(200);
    await deleteConsumer(scope, consumer.id);
    expectProblem(await http("GET", LIST, { key: key.secret }), 401, "unauthorized");
    expect((await sql().query(`SELECT count(*)::int AS n FROM api_key WHERE "consumerId" = $1`, [consumer.id])).rows[0].n).toBe(0);
  });

  it("treats a consumer of another environment as not found", async () => {
    const other = await createEnvironment();
    const foreign = await createConsumer({ organizationId: scope.organizationId, environmentId: other.id }, { name: "Elsewhere" });
    await expectAppError(renameConsumer(scope, foreign.id, "Mine now"), "not_found");
    await expectAppError(deleteConsumer(scope, foreign.id), "not_found");
    await expectAppError(createApiKey(scope, { consumerId: foreign.id }), "not_found");
    await expectAppError(setGrant(scope, { consumerId: foreign.id, flowApiId: citiesApiId, granted: true }), "not_found");
  });
});

describe("keys", () => {
  it("a new key works at once, is stored only as its hash and a short prefix, and is listed without its secret", async () => {
    const { consumer, key } = await consumerWithKey();
    expect(key.secret).toMatch(KEY_PATTERN);
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    expect(key.prefix.length).toBeLessThan(key.secret.length / 2);
    const { rows } = await sql().query(`SELECT hash, prefix FROM api_key WHERE id = $1`, [key.id]);
    expect(rows[0]).toEqual({ hash: hashApiKey(key.secret), prefix: key.prefix });
    expect((await http("GET", LIST, { key: key.secret })).status).toBe(200);
    const listed = (await listConsumers(scope)).find((c) => c.id === consumer.id)!;
    expect(JSON.stringify(listed)).not.toContain(key.secret);
    expect(listed.keys[0]).toMatchObject({ id: key.id, prefix: key.prefix, name: "server", state: "active" });
  });

  it("records when a key was last used", async () => {
    const { consumer, key } = await consumerWithKey();
    expect((await listConsumers(scope)).find((c) => c.id === consumer.id)!.keys[0].lastUsedAt).toBeNull();
    const before = Date.now();
    expect((await http("GET", LIST, { key: key.secret })).status).toBe(200);
    const used = await waitFor("lastUsedAt", async () => (await listConsumers(scope)).find((c) => c.id === consumer.id)!.keys[0].lastUsedAt, 5000);
    expect(used.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(used.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("a revoked key is refused on the next call (401), and revoking again changes nothing", async () => {
    const { key } = await consumerWithKey();
    expect((await http("GET", LIST, { key: key.secret })).status).toBe(200);
    const first = await revokeApiKey(scope, key.id);
    expectProblem(await http("GET", LIST, { key: key.secret }), 401, "unauthorized");
    expect((await revokeApiKey(scope, key.id)).revokedAt).toEqual(first.revokedAt);
  });

  it("an expiry in the past is refused; a key past its expiry is refused (401)", async () => {
    const { consumer } = await consumerWithKey();
    const err = await expectAppError(createApiKey(scope, { consumerId: consumer.id, expiresAt: new Date(Date.now() - 1000) }), "validation_failed");
    expect(err.errors?.[0].field).toBe("/expiresAt");
    const soon = await createApiKey(scope, { consumerId: consumer.id, expiresAt: new Date(Date.now() + 60 * 60_000) });
    expect((await http("GET", LIST, { key: soon.secret })).status).toBe(200);
    // Its hour passes (set in the database, not waited for).
    await sql().query(`UPDATE api_key SET "expiresAt" = now() AT TIME ZONE 'UTC' - interval '1 second' WHERE id = $1`, [soon.id]);
    expectProblem(await http("GET", LIST, { key: soon.secret }), 401, "unauthorized");
  });

  it("rotation: both keys work during the overlap, then only the new one", async () => {
    const { key } = await consumerWithKey();
    expect((await http("GET", LIST, { key: key.secret })).status).toBe(200); // cached in the app
    const { newKey, oldKeyExpiresAt } = await rotateApiKey(scope, key.id, { overlapMinutes: 60 });
    expect(newKey.secret).not.toBe(key.secret);
    expect(Math.abs(oldKeyExpiresAt.getTime() - (Date.now() + 60 * 60_000))).toBeLessThan(10_000);
    expect((await http("GET", LIST, { key: key.secret })).status).toBe(200);
    expect((await http("GET", LIST, { key: newKey.secret })).status).toBe(200);
    // The overlap ends (as if an hour passed): the old key stops, the new one goes on.
    await sql().query(`UPDATE api_key SET "expiresAt" = now() AT TIME ZONE 'UTC' - interval '1 second' WHERE id = $1`, [key.id]);
    expectProblem(await http("GET", LIST, { key: key.secret }), 401, "unauthorized");
    expect((await http("GET", LIST, { key: newKey.secret })).status).toBe(200);
    // A key that no longer works cannot be rotated.
    await expectAppError(rotateApiKey(scope, key.id, { overlapMinutes: 0 }), "conflict");
  });

  it("rotation without overlap stops the old key at once; an out-of-range overlap is refused", async () => {
    const { key } = await consumerWithKey();
    await expectAppError(rotateApiKey(scope, key.id, { overlapMinutes: -1 }), "validation_failed");
    await expectAppError(rotateApiKey(scope, key.id, { overlapMinutes: 31 * 24 * 60 }), "validation_failed");
    const { newKey } = await rotateApiKey(scope, key.id, { overlapMinutes: 0 });
    expectProblem(await http("GET", LIST, { key: key.secret }), 401, "unauthorized");
    expect((await http("GET", LIST, { key: newKey.secret })).status).toBe(200);
  });
});

describe("grants", () => {
  it("removing a grant answers 403 on the next call; restoring it answers 200 again", async () => {
    const { consumer, key } = await consumerWithKey();
    expect((await http("GET", LIST, { key: key.secret })).status).toBe(200);
    await setGrant(scope, { consumerId: consumer.id, flowApiId: citiesApiId, granted: false });
    expectProblem(await http("GET", LIST, { key: key.secret }), 403, "forbidden");
    await setGrant(scope, { consumerId: consumer.id, flowApiId: citiesApiId, granted: false }); // idempotent
    await setGrant(scope, { consumerId: consumer.id, flowApiId: citiesApiId, granted: true });
    expect((await http("GET", LIST, { key: key.secret })).status).toBe(200);
    await setGrant(scope, { consumerId: consumer.id, flowApiId: citiesApiId, granted: true }); // idempotent
    expect((await listConsumers(scope)).find((c) => c.id === consumer.id)!.grantedApiIds).toEqual([citiesApiId]);
  });

  it("refuses an API of another organization", async () => {
    const { consumer } = await consumerWithKey();
    await expectAppError(setGrant(scope, { consumerId: consumer.id, flowApiId: "00000000-0000-4000-8000-000000000000", granted: true }), "not_found");
  });
});

describe("readable layers", () => {
  it("a removed layer is refused (422) on the next run request; added back it is accepted", async () => {
    const { key } = await consumerWithKey();
    const layers = await listEnvironmentLayers(scope);
    expect(layers.find((l) => l.id === "world-cities")?.readable).toBe(true);
    const body = {
      inputs: {
        cities: { layer_id: "world-cities" },
        area: {
          area: {
            type: "Polygon",
            coordinates: [
              [
                [8.4, 47.3],
                [8.7, 47.3],
                [8.7, 47.5],
                [8.4, 47.5],
                [8.4, 47.3],
              ],
            ],
          },
        },
      },
    };
    try {
      await setLayerReadable(scope, { workspaceId, layerId: "world-cities", readable: false });
      expect((await listEnvironmentLayers(scope)).find((l) => l.id === "world-cities")?.readable).toBe(false);
      const refused = expectProblem(await http("POST", `${CITIES}/runs`, { key: key.secret, body }), 422, "validation_failed");
      expect(refused.errors.map((e: { field: string }) => e.field)).toContain("/inputs/cities/layer_id");
    } finally {
      await setLayerReadable(scope, { workspaceId, layerId: "world-cities", readable: true });
    }
    const accepted = await http("POST", `${CITIES}/runs`, { key: key.secret, body: { ...body, wait_seconds: 30 } });
    expect([200, 202]).toContain(accepted.status);
    await expectAppError(setLayerReadable(scope, { workspaceId, layerId: "no-such-layer", readable: true }), "not_found");
  });
});
