/**
 * The web process caches resolved callers (lib/keys/caller-cache.ts). Revocation must still
 * take effect at once: a database trigger sends NOTIFY auth_changed on every change to
 * keys, grants and releases, which empties the cache before the next request.
 */
import { describe, expect, it } from "vitest";
import { generateApiKey, hashApiKey, keyPrefix } from "@/lib/keys/api-key";
import { apiPath, http, sql, waitFor } from "./helpers";

async function newDemoKey(): Promise<{ secret: string; id: string }> {
  const secret = generateApiKey();
  const { rows } = await sql().query(
    `INSERT INTO api_key (id, "consumerId", name, prefix, hash)
     SELECT gen_random_uuid(), c.id, 'cache test', $1, $2 FROM consumer c WHERE c.slug = 'demo-consumer' RETURNING id`,
    [keyPrefix(secret), hashApiKey(secret)],
  );
  return { secret, id: rows[0].id };
}

const LIST = `${apiPath("cities-in-area")}/runs`;

describe("caller cache", () => {
  it("stops accepting a key on the very next request after it is revoked", async () => {
    const key = await newDemoKey();
    for (let i = 0; i < 3; i++) expect((await http("GET", LIST, { key: key.secret })).status).toBe(200); // now cached
    await sql().query(`UPDATE api_key SET "revokedAt" = now() WHERE id = $1`, [key.id]);
    const r = await http("GET", LIST, { key: key.secret });
    expect(r.status).toBe(401);
  });

  it("honours an expiry that passes while the caller is cached", async () => {
    const key = await newDemoKey();
    await sql().query(`UPDATE api_key SET "expiresAt" = (now() AT TIME ZONE 'utc') + interval '2 seconds' WHERE id = $1`, [key.id]);
    expect((await http("GET", LIST, { key: key.secret })).status).toBe(200);
    expect((await http("GET", LIST, { key: key.secret })).status).toBe(200);
    // Nothing changes in the database (no NOTIFY): only the clock passes the cached expiry.
    await waitFor(
      "the key's expiry to pass on the database clock",
      async () => (await sql().query(`SELECT (now() AT TIME ZONE 'utc') > "expiresAt" AS passed FROM api_key WHERE id = $1`, [key.id])).rows[0].passed,
      10_000,
    );
    expect((await http("GET", LIST, { key: key.secret })).status).toBe(401);
  });

  it("answers 403 on the next request after a grant is removed, and 200 again when it is restored", async () => {
    const key = await newDemoKey();
    expect((await http("GET", LIST, { key: key.secret })).status).toBe(200);
    const { rows } = await sql().query(
      `DELETE FROM access_grant g USING consumer c, flow_api a
       WHERE g."consumerId" = c.id AND g."flowApiId" = a.id AND c.slug = 'demo-consumer' AND a.slug = 'cities-in-area'
       RETURNING g."consumerId", g."flowApiId"`,
    );
    try {
      expect((await http("GET", LIST, { key: key.secret })).status).toBe(403);
    } finally {
      await sql().query(`INSERT INTO access_grant ("consumerId", "flowApiId") VALUES ($1, $2)`, [rows[0].consumerId, rows[0].flowApiId]);
    }
    expect((await http("GET", LIST, { key: key.secret })).status).toBe(200);
  });
});
