/**
 * Helpers of the design tool's browser tests: sign-in as the demo designer, an axe check of
 * the page (WCAG 2 A/AA rules), direct database access for what the design tool does not do
 * itself (an access grant for the demo consumer, which the serving console gives; usage
 * counters), and calls of the public API with a key.
 */
import { expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import pg from "pg";

export const BASE_URL = process.env.E2E_BASE_URL ?? "http://127.0.0.1:3106";
export const API_KEY = process.env.E2E_API_KEY ?? process.env.TEST_DEMO_API_KEY ?? "";
const DATABASE_URL = process.env.E2E_DATABASE_URL ?? process.env.DATABASE_URL ?? "";

export async function signInAsDesigner(page: Page): Promise<void> {
  await page.goto("/sign-in?callbackUrl=/design");
  await page.getByLabel("Email").fill(process.env.E2E_DESIGNER_EMAIL ?? "designer@demo.local");
  await page.getByLabel("Password").fill(process.env.E2E_DESIGNER_PASSWORD ?? "");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/design\/demo\/demo\/flows/);
}

/** No axe violations (WCAG 2.0/2.1 A and AA) on the page as it is now. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).exclude(".maplibregl-canvas").analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`);
  expect(summary, `axe on ${what}`).toEqual([]);
}

let pool: pg.Pool | undefined;
export function db(): pg.Pool {
  if (!DATABASE_URL) throw new Error("E2E_DATABASE_URL is not set");
  pool ??= new pg.Pool({ connectionString: DATABASE_URL, max: 2 });
  return pool;
}

export async function closeDb(): Promise<void> {
  await pool?.end();
  pool = undefined;
}

/** The serving console's part: the demo consumer may call `slug` in production. */
export async function grantDemoConsumer(slug: string): Promise<void> {
  await db().query(
    `INSERT INTO access_grant ("consumerId", "flowApiId")
     SELECT c.id, a.id FROM consumer c JOIN environment e ON e.id = c."environmentId" AND e.slug = 'production'
     JOIN flow_api a ON a.slug = $1 WHERE c.slug = 'demo-consumer' ON CONFLICT DO NOTHING`,
    [slug],
  );
}

export async function demoUsage(): Promise<{ etlRuns: number; apiRequests: number; processingMs: number }> {
  const { rows } = await db().query(
    `SELECT COALESCE(sum(u."etlRuns"), 0)::int AS "etlRuns", COALESCE(sum(u."apiRequests"), 0)::int AS "apiRequests", COALESCE(sum(u."processingMs"), 0)::int AS "processingMs"
     FROM usage_counter u JOIN workspace w ON w.id = u."workspaceId" JOIN organization o ON o.id = w."organizationId" WHERE o.slug = 'demo' AND w.slug = 'demo'`,
  );
  return rows[0];
}

/** Runs the published API in production over HTTP with the key; answers the run document. */
export async function callPublished(slug: string, body: unknown): Promise<{ status: number; doc: any }> {
  const res = await fetch(`${BASE_URL}/public/api/demo/production/${slug}/runs`, {
    method: "POST",
    headers: { "x-api-key": API_KEY, "content-type": "application/json" },
    body: JSON.stringify({ ...(body as object), wait_seconds: 60 }),
  });
  return { status: res.status, doc: await res.json() };
}

/** Polls `fn` until it returns something truthy. */
export async function eventually<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}
