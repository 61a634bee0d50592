/**
 * The serving console in Chromium, as the demo admin (issue 11): create a consumer, grant it
 * an API, create a key and read it once, call the API with it over HTTP, remove the grant
 * (403) and restore it (200), revoke (401), rotate (both keys work during the overlap), see
 * usage move after calls, turn the AI switch on and read the "Connect an AI client" view; on
 * a plan without AI access the switch is disabled and says why; a designer cannot open the
 * console. Every page is checked with axe.
 *
 * Needs the running app (`baseURL`), its database (`DATABASE_URL`, for the free-plan
 * organization this test sets up) and the demo users' passwords (`DEMO_ADMIN_PASSWORD`,
 * `DEMO_DESIGNER_PASSWORD`, which `npm start` / the test runner force).
 */
import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import pg from "pg";
import { withDemoUsageLock } from "./support/usage-lock";

const ORG = "demo";
const ENV = "production";
const CONSOLE = `/console/${ORG}/${ENV}`;
const API = `/public/api/${ORG}/${ENV}/cities-in-area`;
const ADMIN = { email: process.env.DEMO_ADMIN_EMAIL ?? "admin@demo.local", password: process.env.DEMO_ADMIN_PASSWORD ?? "" };
const DESIGNER = { email: process.env.DEMO_DESIGNER_EMAIL ?? "designer@demo.local", password: process.env.DEMO_DESIGNER_PASSWORD ?? "" };

async function signIn(page: Page, who: { email: string; password: string }, to: string): Promise<void> {
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(to)}`);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((u) => u.pathname.startsWith(to.split("?")[0]));
}

async function axe(page: Page): Promise<void> {
  // The title can be missing for a moment after a client-side navigation (axe once saw none on the console keys page).
  await expect(page).toHaveTitle(/\S/);
  // Toasts fade in and out: axe measured one mid-animation (partial opacity) as low contrast.
  // Each page is checked without them; the toast colours are sonner's own themed defaults.
  const result = await new AxeBuilder({ page }).exclude("[data-sonner-toaster]").analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** Lists runs with `key`: an API request counted in the demo workspace's usage, so only inside the lock (see usage-lock.ts). */
async function listRunsLocked(request: APIRequestContext, key: string): Promise<number> {
  return (await request.get(`${API}/runs`, { headers: { "x-api-key": key } })).status();
}

/** `listRunsLocked` taking the usage lock for the one call. */
async function listRuns(request: APIRequestContext, key: string): Promise<number> {
  return withDemoUsageLock(() => listRunsLocked(request, key));
}

/** The secret shown once in the dialog; closing it leaves only the prefix on the page. */
async function readSecretOnce(page: Page): Promise<string> {
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("This is the only time the key is shown")).toBeVisible();
  const secret = await dialog.getByLabel("API key").inputValue();
  expect(secret).toMatch(/^fapi_[0-9A-Za-z]{32}$/);
  await axe(page);
  await dialog.getByRole("button", { name: "I have stored the key" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(secret);
  await expect(page.getByText(`${secret.slice(0, 12)}…`).first()).toBeVisible();
  return secret;
}

test.describe.configure({ mode: "serial" });
// Each journey signs in, runs axe on every page and waits for real HTTP calls: minutes on a busy 2-core machine.
test.setTimeout(300_000);

test("an admin manages a consumer's access end to end", async ({ page, request }) => {
  const name = `E2E consumer ${randomBytes(3).toString("hex")}`;
  await signIn(page, ADMIN, `${CONSOLE}/apis`);
  await expect(page.getByRole("heading", { level: 1, name: "APIs" })).toBeVisible();
  await expect(page.getByRole("cell", { name: /cities-in-area/ })).toBeVisible();
  await axe(page);

  // Consumer and grant.
  await page.getByRole("link", { name: "Consumers" }).click();
  await page.getByLabel("New consumer").fill(name);
  await page.getByRole("button", { name: "Create consumer" }).click();
  const card = page.getByRole("list", { name: "Consumers" }).getByRole("listitem").filter({ hasText: name });
  await expect(card).toBeVisible();
  const grant = card.getByRole("switch", { name: /cities-in-area/ });
  await grant.click();
  await expect(grant).toBeChecked();
  await axe(page);

  // Key: shown once.
  await card.getByRole("link", { name: `Keys of ${name}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Keys" })).toBeVisible();
  await page.getByLabel("Key name (optional)").fill("e2e server");
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = await readSecretOnce(page);
  await axe(page);
  expect(await listRuns(request, secret)).toBe(200);

  // Remove the grant: 403 on the next call; restore: 200.
  await page.getByRole("link", { name: "Consumers" }).click();
  await card.getByRole("switch", { name: /cities-in-area/ }).click();
  await expect(card.getByRole("switch", { name: /cities-in-area/ })).not.toBeChecked();
  expect(await listRuns(request, secret)).toBe(403);
  await card.getByRole("switch", { name: /cities-in-area/ }).click();
  await expect(card.getByRole("switch", { name: /cities-in-area/ })).toBeChecked();
  expect(await listRuns(request, secret)).toBe(200);

  // Rotate with an overlap: both keys work.
  await page.getByRole("link", { name: "Keys", exact: true }).click();
  await page.getByRole("button", { name: `Rotate key ${secret.slice(0, 12)}` }).click();
  await page.getByLabel("Overlap").selectOption({ label: "1 hour" });
  await page.getByRole("button", { name: "Rotate key" }).click();
  const rotated = await readSecretOnce(page);
  expect(rotated).not.toBe(secret);
  expect(await listRuns(request, secret)).toBe(200);
  expect(await listRuns(request, rotated)).toBe(200);
  await expect(page.locator(`[data-key-prefix="${secret.slice(0, 12)}"]`).getByText("Expires")).toBeVisible();

  // Revoke the old key: 401 on the next call; the new one goes on.
  await page.getByRole("button", { name: `Revoke key ${secret.slice(0, 12)}` }).click();
  await page.getByRole("button", { name: "Revoke key" }).click();
  await expect(page.locator(`[data-key-prefix="${secret.slice(0, 12)}"]`).getByText("Revoked")).toBeVisible();
  expect(await listRuns(request, secret)).toBe(401);
  expect(await listRuns(request, rotated)).toBe(200);

  // Usage moves after calls.
  await page.getByRole("link", { name: "Usage" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Usage" })).toBeVisible();
  const requests = async () => Number((await page.getByTestId("usage-api-requests").first().innerText()).replace(/,/g, ""));
  // No other spec may call a demo API between the reading before and the one after these calls.
  // Calls are counted within half a second (lib/metering/call-counter.ts): the reading before
  // these calls waits until the calls made earlier (the rotated key's check above) are in.
  const settled = async () => {
    let last = await requests();
    for (;;) {
      await page.waitForTimeout(700);
      await page.reload();
      const now = await requests();
      if (now === last) return now;
      last = now;
    }
  };
  await withDemoUsageLock(async () => {
    const before = await settled();
    for (let i = 0; i < 3; i++) expect(await listRunsLocked(request, rotated)).toBe(200);
    await expect.poll(async () => (await page.reload(), await requests())).toBe(before + 3);
  });
  await expect(page.getByRole("row").filter({ hasText: name })).toBeVisible();
  await expect(page.getByTestId("refused-401")).toBeVisible();
  await axe(page);

  // Runs page with its filters.
  await page.getByRole("link", { name: "Runs" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Runs" })).toBeVisible();
  await page.getByLabel("Consumer").selectOption({ label: name });
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByText("No runs match these filters")).toBeVisible();
  await axe(page);
});

test("AI access: the switch and the Connect an AI client view", async ({ page }) => {
  await signIn(page, ADMIN, `${CONSOLE}/ai-access`);
  await expect(page.getByRole("heading", { level: 1, name: "AI access" })).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "cities_in_area" });
  const toggle = row.getByRole("switch", { name: "Available to AI assistants" });
  if (await toggle.isChecked()) {
    await toggle.click();
    await expect(toggle).not.toBeChecked();
  }
  await toggle.click();
  await expect(toggle).toBeChecked();
  await expect(page.getByLabel("MCP address (Streamable HTTP)")).toHaveValue(new RegExp(`/public/mcp/${ORG}/${ENV}$`));
  await page.getByLabel("Consumer", { exact: true }).selectOption({ label: "Demo consumer" });
  await expect(page.getByRole("list", { name: "Tools" }).getByText("cities_in_area")).toBeVisible();
  await expect(page.locator('[data-config="claude-code"]')).toContainText("claude mcp add --transport http");
  await expect(page.locator('[data-config="vscode"]')).toContainText('"password": true');
  await expect(page.locator('[data-config="mcp-remote"]')).toContainText("mcp-remote");
  await expect(page.locator('[data-config="cursor"]')).toContainText("<your API key>");
  await axe(page);
  // The API's own Settings page has the same switch.
  // The link of this row (other specs publish APIs of the same name), and the page it opens.
  await row.getByRole("link", { name: "Cities in area" }).click();
  await page.waitForURL((u) => u.pathname.endsWith("/apis/cities-in-area"));
  await expect(page.getByRole("switch", { name: "Available to AI assistants" })).toBeChecked();
  await axe(page);
});

test("Connect an AI client: a consumer granted no API sees only the server's own tools, and says why", async ({ page }) => {
  const name = `E2E no grants ${randomBytes(3).toString("hex")}`;
  await signIn(page, ADMIN, `${CONSOLE}/consumers`);
  await page.getByLabel("New consumer").fill(name);
  await page.getByRole("button", { name: "Create consumer" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await page.goto(`${CONSOLE}/ai-access`);
  await page.getByLabel("Consumer", { exact: true }).selectOption({ label: name });
  const tools = page.getByRole("list", { name: "Tools" });
  await expect(tools.getByRole("listitem")).toHaveText(["run_status", "run_result", "run_cancel", "list_layers"]);
  await expect(page.getByText("No Flow API yet: turn an API's switch on and grant it to this consumer.")).toBeVisible();
});

test("on a plan without AI access the switch is disabled and says why", async ({ page }) => {
  const org = `e2e-free-${randomBytes(3).toString("hex")}`;
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    const def = (
      await db.query(`SELECT v.id, v.definition FROM flow_api f JOIN flow_version v ON v.id = f."selectedFlowVersionId" WHERE f.slug = 'cities-in-area'`)
    ).rows[0];
    const o = (await db.query(`INSERT INTO organization (id, slug, name) VALUES (gen_random_uuid(), $1, $1) RETURNING id`, [org])).rows[0].id;
    const w = (
      await db.query(`INSERT INTO workspace (id, "organizationId", slug, name, "planId") VALUES (gen_random_uuid(), $1, 'main', 'Main', 'free') RETURNING id`, [
        o,
      ])
    ).rows[0].id;
    const e = (
      await db.query(`INSERT INTO environment (id, "organizationId", slug, name) VALUES (gen_random_uuid(), $1, 'production', 'Production') RETURNING id`, [o])
    ).rows[0].id;
    const f = (await db.query(`INSERT INTO flow (id, "workspaceId", name) VALUES (gen_random_uuid(), $1, 'Cities') RETURNING id`, [w])).rows[0].id;
    const v = (
      await db.query(`INSERT INTO flow_version (id, "flowId", version, definition) VALUES (gen_random_uuid(), $1, 1, $2) RETURNING id`, [f, def.definition])
    ).rows[0].id;
    const a = (
      await db.query(
        `INSERT INTO flow_api (id, "organizationId", "workspaceId", "flowId", "selectedFlowVersionId", slug, name, status) VALUES (gen_random_uuid(), $1, $2, $3, $4, 'cities', 'Cities', 'published') RETURNING id`,
        [o, w, f, v],
      )
    ).rows[0].id;
    const r = (
      await db.query(`INSERT INTO release (id, "flowApiId", "environmentId", "flowVersionId", number) VALUES (gen_random_uuid(), $1, $2, $3, 1) RETURNING id`, [
        a,
        e,
        v,
      ])
    ).rows[0].id;
    await db.query(`INSERT INTO environment_api ("environmentId", "flowApiId", "releaseId", "updatedAt") VALUES ($1, $2, $3, now())`, [e, a, r]);
    await db.query(`INSERT INTO membership ("userId", "organizationId", role) SELECT id, $1, 'admin' FROM app_user WHERE email = $2`, [o, ADMIN.email]);
  } finally {
    await db.end();
  }
  await signIn(page, ADMIN, `/console/${org}/production/ai-access`);
  const toggle = page.getByRole("switch", { name: "Available to AI assistants" });
  await expect(toggle).toBeDisabled();
  await expect(page.getByText(/The Free plan of workspace "Main" does not include AI access/)).toBeVisible();
  await axe(page);
});

// React moves what follows the first ~3,200 characters of an RSC row into rows of their own, as
// lazy references. FormField, as a client component, cloned its child: when the cut fell between
// a field and its control, the clone had type undefined and the Runs page failed (React #130).
// One consumer's name grows in steps smaller than a field's own props, so the cut sweeps over
// every filter field.
test("the Runs page renders wherever React splits its RSC rows", async ({ page }) => {
  test.setTimeout(120_000);
  const org = `e2e-runs-${randomBytes(3).toString("hex")}`;
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    const o = (await db.query(`INSERT INTO organization (id, slug, name) VALUES (gen_random_uuid(), $1, $1) RETURNING id`, [org])).rows[0].id;
    const e = (
      await db.query(`INSERT INTO environment (id, "organizationId", slug, name) VALUES (gen_random_uuid(), $1, 'production', 'Production') RETURNING id`, [o])
    ).rows[0].id;
    const c = (await db.query(`INSERT INTO consumer (id, "environmentId", slug, name) VALUES (gen_random_uuid(), $1, 'c', 'C') RETURNING id`, [e])).rows[0].id;
    await db.query(`INSERT INTO membership ("userId", "organizationId", role) SELECT id, $1, 'admin' FROM app_user WHERE email = $2`, [o, ADMIN.email]);
    await signIn(page, ADMIN, `/console/${org}/production/runs`);
    for (let length = 0; length <= 1600; length += 25) {
      await db.query(`UPDATE consumer SET name = 'Consumer ' || repeat('x', $2) WHERE id = $1`, [c, length]);
      await page.goto(`/console/${org}/production/runs`);
      await expect(page.getByText("No runs yet"), `consumer name of ${length + 9} characters`).toBeVisible({ timeout: 10_000 });
    }
  } finally {
    await db.end();
  }
  await expect(page.getByLabel("Started until")).toHaveAttribute("type", "date");
  await axe(page);
});

test("a designer cannot open the console", async ({ page }) => {
  await signIn(page, DESIGNER, "/design");
  const res = await page.goto(`${CONSOLE}/consumers`);
  expect(res?.status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1, name: "Not allowed" })).toBeVisible();
  await axe(page);
});
