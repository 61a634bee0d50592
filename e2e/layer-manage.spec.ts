/**
 * Layers a designer can manage, in Chromium: rename a layer from its page (errors beside the
 * field), delete it after confirming in a dialog, and the refusal, with its reason, while
 * published APIs may read it (the page and the route, 409); Try it says that a layer its curl
 * call's environment cannot read would be refused there, and who changes that, instead of
 * showing a call that fails. The routes (`PATCH` / `DELETE /api/design/{org}/{workspace}/layers/{id}`)
 * are also called directly with the designer's session. axe checks every page and dialog in
 * both themes; screenshots go to `LAYER_SHOTS_DIR` (default .data/screenshots/layers).
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { closeDb, db } from "./design-helpers";
import { expectAccessible } from "./support/a11y";
import { DEMO, ROOT, STORAGE } from "./support/env";

test.describe.configure({ mode: "serial" });

const SHOTS = process.env.LAYER_SHOTS_DIR ?? path.join(ROOT, ".data/screenshots/layers");
const DESIGN = `/design/${DEMO.organization}/${DEMO.workspace}`;
const ROUTE = `/api/design/${DEMO.organization}/${DEMO.workspace}/layers`;
const tag = randomBytes(3).toString("hex");
const LAYER_ID = `e2e-shops-${tag}`;
const CSV = "name,lon,lat\nBern,7.447,46.948\nBasel,7.589,47.558\n";

let page: Page;

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext({ storageState: STORAGE.designer })).newPage();
  const res = await page.request.post(`${ROUTE}?id=${LAYER_ID}&name=${encodeURIComponent("E2E shops")}&format=csv`, {
    data: CSV,
    headers: { "content-type": "text/csv" },
  });
  expect(res.status(), await res.text()).toBe(201);
  await mkdir(SHOTS, { recursive: true });
});
test.afterAll(async () => {
  await page.context().close();
  await closeDb();
});

/** axe in the dark and the light theme, with a screenshot of `target` in each; the page is left light. */
async function checkBothThemes(name: string, target: Locator | "viewport"): Promise<void> {
  for (const colorScheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
    const file = path.join(SHOTS, `${name}-${colorScheme}.png`);
    if (target === "viewport") await page.screenshot({ path: file, animations: "disabled" });
    else await target.screenshot({ path: file, animations: "disabled" });
    await expectAccessible(page, `${name} (${colorScheme})`);
  }
}

test("Try it says a layer production cannot read would be refused there, instead of showing the call", async () => {
  const api = (await db().query(`SELECT id FROM flow_api WHERE slug = 'cities-in-area' ORDER BY "createdAt" LIMIT 1`)).rows[0].id;
  await page.goto(`${DESIGN}/apis/${api}`);
  await expect(page.getByTestId("curl")).toBeVisible();
  await page.getByLabel("Layer for cities").selectOption(LAYER_ID);
  const note = page.getByTestId("curl-unreadable");
  await expect(note).toContainText(`Layer "${LAYER_ID}" is not readable in production yet`);
  await expect(note).toContainText("would be refused (422 unknown_layer)");
  await expect(note).toContainText("production → APIs → Readable layers");
  // A designer is told where, without a link: the console would answer "Not allowed".
  await expect(note.getByRole("link")).toHaveCount(0);
  await expect(page.getByTestId("curl")).toHaveCount(0);
  await note.scrollIntoViewIfNeeded();
  await checkBothThemes("try-it-unreadable", note);
  // Back to a readable layer: the call is shown again.
  await page.getByLabel("Layer for cities").selectOption("world-cities");
  await expect(page.getByTestId("curl")).toContainText(`/public/api/demo/production/cities-in-area/runs`);
  await expect(note).toHaveCount(0);
});

test("renames a layer from its page; an empty name is refused beside the field", async () => {
  await page.goto(`${DESIGN}/layers/${LAYER_ID}`);
  await expect(page.getByRole("heading", { level: 1, name: "E2E shops" })).toBeVisible();
  await checkBothThemes("layer-page", "viewport");
  await page.getByRole("button", { name: "Rename" }).click();
  const dialog = page.getByRole("dialog", { name: "Rename layer" });
  const field = dialog.getByLabel("Name");
  await expect(field).toHaveValue("E2E shops");
  await field.fill("   ");
  await dialog.getByRole("button", { name: "Save name" }).click();
  await expect(dialog.getByText("A layer needs a name of 1 to 200 characters.")).toBeVisible();
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription("A layer needs a name of 1 to 200 characters.");
  await checkBothThemes("rename-error", "viewport");
  await field.fill("E2E shops (renamed)");
  await dialog.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "E2E shops (renamed)" })).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(LAYER_ID, { exact: true }).first()).toBeVisible(); // the id stays

  // The route itself: 422 naming /name, and the rename done above.
  const bad = await page.request.patch(`${ROUTE}/${LAYER_ID}`, { data: { name: "" } });
  expect(bad.status()).toBe(422);
  expect((await bad.json()).errors).toEqual([expect.objectContaining({ field: "/name", code: "invalid_value" })]);
  expect(
    (await db().query(`SELECT l.name FROM layer l JOIN workspace w ON w.id = l."workspaceId" WHERE w.slug = 'demo' AND l.id = $1`, [LAYER_ID])).rows,
  ).toEqual([{ name: "E2E shops (renamed)" }]);
});

test("refuses deleting a layer published APIs may read, and says why", async () => {
  const refused = await page.request.delete(`${ROUTE}/world-cities`);
  expect(refused.status()).toBe(409);
  const problem = await refused.json();
  expect(problem.code).toBe("conflict");
  expect(problem.detail).toMatch(/cities-in-area \(release \d+ in production\)/);
  // Integration tests may have added environments of their own that read it: production is always among them.
  expect(problem.detail).toMatch(/Environments that may read it: [^.]*\bproduction\b/);

  await page.goto(`${DESIGN}/layers/world-cities`);
  await page.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "This layer cannot be deleted now" });
  await expect(dialog.getByRole("list", { name: "Published APIs that may read the layer" })).toContainText("cities-in-area");
  await expect(dialog).toContainText("Readable layers");
  await expect(dialog.getByRole("button", { name: "Delete layer" })).toHaveCount(0);
  await checkBothThemes("delete-refused", "viewport");
  await dialog.getByRole("button", { name: "Close" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "World cities" })).toBeVisible();
});

test("deletes a layer after confirming: gone from the list, its page and the database", async () => {
  await page.goto(`${DESIGN}/layers/${LAYER_ID}`);
  await page.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete layer?" });
  await expect(dialog).toContainText("This cannot be undone");
  await checkBothThemes("delete-confirm", "viewport");
  await dialog.getByRole("button", { name: "Delete layer" }).click();
  await page.waitForURL((u) => u.pathname === `${DESIGN}/layers`);
  await expect(page.getByText(`Layer "E2E shops (renamed)" deleted.`)).toBeVisible();
  await expect(page.getByRole("link", { name: "E2E shops (renamed)" })).toHaveCount(0);
  expect((await db().query(`SELECT 1 FROM layer WHERE id = $1`, [LAYER_ID])).rowCount).toBe(0);
  expect((await page.goto(`${DESIGN}/layers/${LAYER_ID}`))?.status()).toBe(404);
  expect((await page.request.delete(`${ROUTE}/${LAYER_ID}`)).status()).toBe(404);
});

test.describe("the console's readable layers", () => {
  test.use({ storageState: STORAGE.admin });

  test("offer the layers of the organization's workspaces, one id in two workspaces as two layers, and store the workspace chosen", async ({ page: admin }) => {
    const id = `e2e-dup-${tag}`;
    const q = async (text: string, params: unknown[] = []) => (await db().query(text, params)).rows;
    const [demo] = await q(
      `SELECT o.id AS org, w.id AS ws, w.name FROM organization o JOIN workspace w ON w."organizationId" = o.id AND w.slug = 'demo' WHERE o.slug = 'demo'`,
    );
    const [second] = await q(
      `INSERT INTO workspace (id, "organizationId", slug, name, "planId") SELECT gen_random_uuid(), $1, $2, $3, "planId" FROM workspace WHERE id = $4 RETURNING id, name`,
      [demo.org, `e2e-ws-${tag}`, `E2E second ${tag}`, demo.ws],
    );
    const [otherOrg] = await q(`INSERT INTO organization (id, slug, name) VALUES (gen_random_uuid(), $1, $1) RETURNING id`, [`e2e-other-${tag}`]);
    const [otherWs] = await q(
      `INSERT INTO workspace (id, "organizationId", slug, name, "planId") SELECT gen_random_uuid(), $1, 'main', 'Main', "planId" FROM workspace WHERE id = $2 RETURNING id`,
      [otherOrg.id, demo.ws],
    );
    for (const [ws, name] of [
      [demo.ws, "Dup in demo"],
      [second.id, "Dup in second"],
      [otherWs.id, "Dup elsewhere"],
    ])
      await q(`INSERT INTO layer (id, "workspaceId", name, kind, "updatedAt") VALUES ($1, $2, $3, 'features', now())`, [id, ws, name]);
    try {
      await admin.goto(`/console/${DEMO.organization}/${DEMO.environment}/apis`);
      const select = admin.getByLabel("Add a readable layer");
      await expect(select.locator("option", { hasText: `(${id}, ${demo.name})` })).toHaveCount(1);
      await expect(select.locator("option", { hasText: `(${id}, ${second.name})` })).toHaveCount(1);
      await expect(select.locator("option", { hasText: "Dup elsewhere" })).toHaveCount(0);
      await select.selectOption({ label: `Dup in second (${id}, ${second.name})` });
      await admin.getByRole("button", { name: "Add layer" }).click();
      const remove = admin.getByRole("button", { name: `Remove layer Dup in second (${second.name})` });
      await expect(remove).toBeVisible();
      expect(await q(`SELECT "workspaceId" FROM environment_layer WHERE "layerId" = $1`, [id])).toEqual([{ workspaceId: second.id }]);
      await expectAccessible(admin, "console APIs page with a readable layer of a second workspace");
      await remove.click();
      await expect(remove).toHaveCount(0);
      expect(await q(`SELECT 1 FROM environment_layer WHERE "layerId" = $1`, [id])).toEqual([]);
    } finally {
      await q(`DELETE FROM layer WHERE id = $1`, [id]);
      await q(`DELETE FROM workspace WHERE id = ANY($1::uuid[])`, [[second.id, otherWs.id]]);
      await q(`DELETE FROM organization WHERE id = $1`, [otherOrg.id]);
    }
  });
});
