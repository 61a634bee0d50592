/**
 * The rest of an API's life on its page, in Chromium: publish, the delete dialog refusing
 * while it is published (and saying why), unpublish (the public address then answers 404),
 * a source flow deleted permanently ("Needs a source") replaced by another flow of the
 * workspace, and deleting the API (the plan's count goes down). Every dialog is checked with
 * axe, the delete dialog in both themes. The domain rules are also integration tests
 * (tests/integration/design-api-lifecycle.test.ts). Screenshots go to `UX_SHOTS_DIR`
 * (default .data/screenshots/ux).
 */
import { mkdir } from "node:fs/promises";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { callPublished, closeDb, db, grantDemoConsumer } from "./design-helpers";
import { expectAccessible } from "./support/a11y";
import { ROOT, STORAGE, ZURICH } from "./support/env";

test.describe.configure({ mode: "serial" });

const SHOTS = process.env.UX_SHOTS_DIR ?? path.join(ROOT, ".data/screenshots/ux");
const DESIGN = "/design/demo/demo";
const tag = randomBytes(3).toString("hex");
const API_NAME = `E2E lifecycle ${tag}`;
const API_SLUG = `e2e-lifecycle-${tag}`;
const OLD_FLOW = `E2E old source ${tag}`;
const NEW_FLOW = `E2E new source ${tag}`;
const ECHO = {
  description: "Echoes an area",
  inputs: [{ name: "area", kind: "area" }],
  parameters: [],
  steps: [],
  results: [{ key: "out", kind: "layer", from: "area" }],
};

let page: Page;
let apiId = "";
let oldFlowId = "";

/** A flow of the demo workspace with version 1 (the design tool's own steps are tested elsewhere). */
async function insertFlow(name: string): Promise<{ flowId: string; versionId: string }> {
  const flowId = randomUUID();
  const versionId = randomUUID();
  await db().query(
    `INSERT INTO flow (id, "workspaceId", name) SELECT $1, w.id, $2 FROM workspace w JOIN organization o ON o.id = w."organizationId" WHERE o.slug = 'demo' AND w.slug = 'demo'`,
    [flowId, name],
  );
  await db().query(`INSERT INTO flow_version (id, "flowId", version, definition) VALUES ($1, $2, 1, $3)`, [versionId, flowId, JSON.stringify(ECHO)]);
  return { flowId, versionId };
}

const planUsed = async () => Number((await page.getByTestId("plan-usage").innerText()).match(/^(\d+) of/)![1]);

async function openDialog(button: string | RegExp) {
  await page.getByRole("button", { name: button }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  return page.getByRole("dialog");
}

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext({ storageState: STORAGE.designer })).newPage();
  await mkdir(SHOTS, { recursive: true });
  const old = await insertFlow(OLD_FLOW);
  oldFlowId = old.flowId;
  await insertFlow(NEW_FLOW);
  apiId = randomUUID();
  await db().query(
    `INSERT INTO flow_api (id, "organizationId", "workspaceId", "flowId", "selectedFlowVersionId", slug, name)
     SELECT $1, o.id, w.id, $2, $3, $4, $5 FROM workspace w JOIN organization o ON o.id = w."organizationId" WHERE o.slug = 'demo' AND w.slug = 'demo'`,
    [apiId, old.flowId, old.versionId, API_SLUG, API_NAME],
  );
  await grantDemoConsumer(API_SLUG);
});
test.afterAll(async () => {
  await page.context().close();
  await closeDb();
});

test("a published API cannot be deleted, and its dialog says why", async () => {
  await page.goto(`${DESIGN}/apis/${apiId}`);
  await expect(page.getByRole("heading", { level: 1, name: API_NAME })).toBeVisible();
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Publish" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page.getByTestId("status-production")).toContainText("Published: flow version 1");
  await expect.poll(async () => (await callPublished(API_SLUG, { inputs: { area: { area: ZURICH } } })).status, { timeout: 20_000 }).toBe(200);

  const dialog = await openDialog("Delete API");
  await expect(dialog.getByTestId("delete-refused")).toContainText("It is published in Production");
  await expect(dialog.getByRole("button", { name: "Delete API" })).toBeDisabled();
  for (const colorScheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
    await expectAccessible(page, `delete dialog, refused (${colorScheme})`);
    await page.screenshot({ path: path.join(SHOTS, `api-delete-refused-${colorScheme}.png`), animations: "disabled" });
  }
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
});

test("unpublish from production: the public address answers 404", async () => {
  const dialog = await openDialog("Unpublish from Production");
  await expect(dialog).toContainText("get 404");
  await expect(dialog).toContainText("it becomes a draft again");
  await expectAccessible(page, "unpublish dialog");
  await page.screenshot({ path: path.join(SHOTS, "api-unpublish-light.png"), animations: "disabled" });
  await dialog.getByRole("button", { name: "Unpublish" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page.getByTestId("status-production")).toContainText("Draft (not published)");
  await expect(page.getByRole("button", { name: /Unpublish/ })).toHaveCount(0);
  await expect.poll(async () => (await callPublished(API_SLUG, { inputs: { area: { area: ZURICH } } })).status, { timeout: 20_000 }).toBe(404);
});

test("a source flow deleted permanently: choose another flow of the workspace", async () => {
  // The flow page's delete is tested with the flow editor; here only its outcome matters.
  await db().query(`UPDATE flow SET state = 'deleted', "deletedAt" = now() WHERE id = $1`, [oldFlowId]);
  await page.reload();
  await expect(page.getByTestId("source-label")).toHaveText("Needs a source");
  await page.getByLabel("New source flow").selectOption({ label: `${NEW_FLOW} (latest v1)` });
  const dialog = await openDialog("Use this flow");
  await expect(dialog).toContainText(`version 1 of ${NEW_FLOW}`);
  await expectAccessible(page, "choose a source dialog");
  await page.screenshot({ path: path.join(SHOTS, "api-choose-source-light.png"), animations: "disabled" });
  await dialog.getByRole("button", { name: "Use this flow" }).click();
  await expect(page.getByRole("dialog")).toBeHidden();
  await expect(page.getByTestId("source-label")).toHaveCount(0);
  await expect(page.getByRole("link", { name: NEW_FLOW })).toBeVisible();
  await expect(page.getByTestId("publish-panel")).toBeVisible();
  await expectAccessible(page, "API page after choosing a source");
});

test("delete the unpublished API: it leaves the list and the plan's count", async () => {
  await page.goto(`${DESIGN}/apis`);
  const before = await planUsed();
  await expect(page.getByRole("link", { name: API_NAME })).toBeVisible();
  await page.goto(`${DESIGN}/apis/${apiId}`);
  const dialog = await openDialog("Delete API");
  await expect(dialog).toContainText("no longer counts against your plan");
  await expectAccessible(page, "delete dialog");
  await dialog.getByRole("button", { name: "Delete API" }).click();
  await page.waitForURL(/\/apis$/);
  await expect(page.getByRole("link", { name: API_NAME })).toHaveCount(0);
  // Other specs may create APIs meanwhile: this one's place is freed, whatever they do.
  const { rows } = await db().query(`SELECT "deletedAt" FROM flow_api WHERE id = $1`, [apiId]);
  expect(rows[0].deletedAt).not.toBeNull();
  expect(await planUsed()).toBeLessThanOrEqual(before);
  const gone = await page.goto(`${DESIGN}/apis/${apiId}`);
  expect(gone?.status()).toBe(404);
});
