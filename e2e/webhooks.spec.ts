/**
 * A consumer's webhooks in the console, in Chromium, as the demo admin: the empty state, a URL
 * on a private address refused next to the field, an endpoint added with the keyboard (the
 * signing secret shown once), its deliveries with status and first bytes, the notice of a
 * disabled endpoint and re-enabling it; axe in the light and the dark theme, no sideways
 * scrolling at 390 px. Screenshots go to `WEBHOOK_SHOTS_DIR` (default .data/screenshots/webhooks).
 */
import { mkdir } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { DEMO, ROOT, STORAGE } from "./support/env";
import { sql } from "./support/users";
import { expectAccessible } from "./support/a11y";
import { callPublished } from "./design-helpers";

const SHOTS = process.env.WEBHOOK_SHOTS_DIR ?? path.join(ROOT, ".data/screenshots/webhooks");
const CONSUMERS = `/console/${DEMO.organization}/${DEMO.environment}/consumers`;

async function newConsumer(): Promise<{ id: string; name: string }> {
  const name = `hooks-${randomBytes(3).toString("hex")}`;
  const { rows } = await sql().query<{ id: string }>(
    `INSERT INTO consumer (id, "environmentId", slug, name)
     SELECT gen_random_uuid(), e.id, $1, $1 FROM environment e JOIN organization o ON o.id = e."organizationId" WHERE o.slug = $2 AND e.slug = $3
     RETURNING id`,
    [name, DEMO.organization, DEMO.environment],
  );
  return { id: rows[0]!.id, name };
}

async function noSidewaysScroll(page: Page, shot: string): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => document.documentElement.clientWidth <= 390);
  await page.screenshot({ path: path.join(SHOTS, `${shot}-390.png`), fullPage: true, animations: "disabled" });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.use({ storageState: STORAGE.admin });

test.beforeAll(async () => {
  await mkdir(SHOTS, { recursive: true });
});

test("add a webhook, read its secret once, see deliveries, and re-enable it after it was disabled", async ({ page }) => {
  const consumer = await newConsumer();
  await page.goto(CONSUMERS);
  await page.getByRole("link", { name: `Webhooks of ${consumer.name}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: `Webhooks of ${consumer.name}` })).toBeVisible();
  await expect(page.getByText("No webhooks yet")).toBeVisible();
  await expectAccessible(page, "the empty webhooks page");

  // A private address is refused next to the field.
  const url = page.getByLabel("URL");
  await url.fill("https://10.1.2.3/hook");
  await url.press("Enter");
  await expect(page.getByText("10.1.2.3 is a private, loopback or reserved address.")).toBeVisible();
  await expect(url).toHaveAttribute("aria-invalid", "true");

  // With the keyboard: the URL, one event off, Enter.
  await url.fill("https://hooks.example.com/flow-api");
  await page.getByLabel(/Run cancelled/).focus();
  await page.keyboard.press("Space");
  await expect(page.getByLabel(/Run cancelled/)).not.toBeChecked();
  await url.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("This is the only time the secret is shown")).toBeVisible();
  const secret = await dialog.getByLabel("Secret", { exact: true }).inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  await expectAccessible(page, "the secret dialog");
  await dialog.getByRole("button", { name: "I have stored the secret" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  // Focus goes back to the form's button, not to <body>.
  await expect(page.getByRole("button", { name: "Add webhook" })).toBeFocused();
  await expect(page.locator("body")).not.toContainText(secret);
  const card = page.getByRole("listitem").filter({ hasText: "https://hooks.example.com/flow-api" });
  await expect(card.getByText("enabled", { exact: true })).toBeVisible();
  await expect(card).toContainText("run.completed, run.failed");
  await expect(card.getByText(/No deliveries yet/)).toBeVisible();

  // Deliveries and the disable notice, as the worker would have written them.
  const run = await callPublished("nearby-cities", {
    inputs: { places: { rows: [{ id: "bern", lon: 7.447, lat: 46.948 }] }, cities: { layer_id: "world-cities" } },
  });
  const { rows } = await sql().query<{ id: string }>(`SELECT id FROM webhook_endpoint WHERE "consumerId" = $1`, [consumer.id]);
  const endpointId = rows[0]!.id;
  await sql().query(
    `INSERT INTO webhook_delivery (id, "endpointId", "runId", event, url, state, attempts, "lastStatus", "responseHead", "lastAttemptAt")
     VALUES (gen_random_uuid(), $1, $2, 'run.completed', 'https://hooks.example.com/flow-api', 'failed', 31, 503, 'Service Unavailable: the receiver is down for maintenance', now()),
            (gen_random_uuid(), $1, $2, 'run.completed', 'https://hooks.example.com/flow-api', 'delivered', 1, 200, '{"ok":true}', now() - interval '1 day')`,
    [endpointId, run.doc.run_id],
  );
  await sql().query(
    `UPDATE webhook_endpoint SET enabled = false, "consecutiveFailures" = 1, "disabledAt" = now(),
       "disabledReason" = 'Disabled on 2026-11-26 23:00 UTC: every delivery failed since 2026-11-25 22:58 UTC (last: HTTP 503).' WHERE id = $1`,
    [endpointId],
  );
  await page.reload();
  await expect(card.getByText("disabled", { exact: true })).toBeVisible();
  await expect(card.getByText("No deliveries go to this endpoint")).toBeVisible();
  await expect(card).toContainText("every delivery failed since 2026-11-25 22:58 UTC (last: HTTP 503)");
  const table = card.getByRole("table", { name: /Recent deliveries/ });
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table).toContainText("HTTP 503");
  await expect(table).toContainText("Service Unavailable: the receiver is down");
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
    await expectAccessible(page, `the webhooks page (${colorScheme})`);
    await page.screenshot({ path: path.join(SHOTS, `webhooks-${colorScheme}.png`), fullPage: true, animations: "disabled" });
    await noSidewaysScroll(page, `webhooks-${colorScheme}`);
  }

  await card.getByRole("button", { name: /Re-enable/ }).click();
  await expect(card.getByText("enabled", { exact: true })).toBeVisible();
  await expect(card.getByText("No deliveries go to this endpoint")).toHaveCount(0);
});

test("the settings page edits the outbound allow-list", async ({ page }) => {
  await page.goto(`/console/${DEMO.organization}/${DEMO.environment}/settings`);
  const hosts = page.getByLabel("Allowed private hosts");
  await hosts.fill("not a host!");
  await page.getByRole("button", { name: "Save hosts" }).click();
  await expect(page.getByText('"not a host!" is not a host name or IP address.')).toBeVisible();
  await hosts.fill("");
  await page.getByRole("button", { name: "Save hosts" }).click();
  await expect(page.getByText("Saved: only public https addresses are allowed.")).toBeVisible();
  await expectAccessible(page, "the settings page");
  await page.screenshot({ path: path.join(SHOTS, "settings.png"), fullPage: true, animations: "disabled" });
});
