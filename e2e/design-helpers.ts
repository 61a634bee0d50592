/**
 * Helpers of the design tool's browser tests (design-*.spec.ts): direct database access
 * (DATABASE_URL from scripts/test.ts) for what the design tool does not do itself (an access
 * grant for the demo consumer, which the serving console gives) and for usage counters, and
 * calls of the published API over HTTP with the demo key (TEST_DEMO_API_KEY).
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import pg from "pg";
import { expectAccessible } from "./support/a11y";
import { ROOT } from "./support/env";
import { withDemoUsageLock } from "./support/usage-lock";

const BASE_URL = process.env.TEST_BASE_URL ?? "http://127.0.0.1:3000";
const API_KEY = process.env.TEST_DEMO_API_KEY ?? "";

let pool: pg.Pool | undefined;
export function db(): pg.Pool {
  pool ??= new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
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

/** Usage of the demo workspace, all days together. */
export async function demoUsage(): Promise<{ etlRuns: number; apiRequests: number; processingMs: number }> {
  const { rows } = await db().query(
    `SELECT COALESCE(sum(u."etlRuns"), 0)::int AS "etlRuns", COALESCE(sum(u."apiRequests"), 0)::int AS "apiRequests", COALESCE(sum(u."processingMs"), 0)::int AS "processingMs"
     FROM usage_counter u JOIN workspace w ON w.id = u."workspaceId" JOIN organization o ON o.id = w."organizationId" WHERE o.slug = 'demo' AND w.slug = 'demo'`,
  );
  return rows[0];
}

/**
 * Runs the published API in production over HTTP with the demo key; answers the status and run
 * document. The call is counted in the demo workspace's usage, so it takes the usage lock.
 */
export async function callPublished(slug: string, body: object): Promise<{ status: number; doc: any }> {
  return withDemoUsageLock(async () => {
    const res = await fetch(`${BASE_URL}/public/api/demo/production/${slug}/runs`, {
      method: "POST",
      headers: { "x-api-key": API_KEY, "content-type": "application/json" },
      body: JSON.stringify({ ...body, wait_seconds: 60 }),
    });
    return { status: res.status, doc: await res.json() };
  });
}

/** The text of a published run's result file (`href` from its run document), downloaded with the demo key. */
export async function downloadPublished(href: string): Promise<string> {
  const res = await fetch(`${BASE_URL}${href}`, { headers: { "x-api-key": API_KEY } });
  expect(res.status, href).toBe(200);
  return res.text();
}

/** Replaces the whole document in the CodeMirror editor (the JSON view of the flow editor). */
export async function setEditorText(page: Page, text: string): Promise<void> {
  const json = page.getByRole("tab", { name: "JSON" });
  if ((await json.getAttribute("aria-selected")) !== "true") await json.click();
  const content = page.getByTestId("flow-editor").locator(".cm-content");
  await content.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(text);
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

/**
 * Screenshots of what `target` shows now in the light and the dark theme, into
 * .data/screenshots/design-<name>-<theme>.png (looked at by hand; see the report of issue 10).
 * `target` is an element, or "viewport" for what the window shows (a modal dialog). The theme follows the system's: emulating the colour scheme flips it. Each theme is also
 * checked with axe; the page is left in the light theme.
 */
export async function screenshotBothThemes(page: Page, name: string, target: Locator | "viewport"): Promise<void> {
  const dir = path.join(ROOT, ".data/screenshots");
  await mkdir(dir, { recursive: true });
  for (const colorScheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
    const file = path.join(dir, `design-${name}-${colorScheme}.png`);
    if (target === "viewport") await page.screenshot({ path: file, animations: "disabled" });
    else {
      await target.scrollIntoViewIfNeeded();
      await target.screenshot({ path: file, animations: "disabled" });
    }
    if (colorScheme === "dark") await expectAccessible(page, `${name} (dark)`);
  }
}

/** Chooses, in the New API dialog, the flow whose option matches `name` (an option also names the flow's latest version). */
export async function chooseApiFlow(page: Page, name: RegExp): Promise<void> {
  const select = page.getByRole("combobox", { name: "Flow" });
  await select.selectOption((await select.locator("option").filter({ hasText: name }).getAttribute("value"))!);
}
