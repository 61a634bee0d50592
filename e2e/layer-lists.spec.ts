/**
 * Layers as the design tool lists and offers them, in Chromium, as the demo designer, with a
 * few point layers of its own whose names are lower-case (so the database's code-point order
 * would put them after every capitalised name) and which no environment may read:
 * - the Layers page sorts names case-insensitively;
 * - "Run the flow" starts a layer input on the layer Try it would choose (one production can
 *   read), not on the first of its list;
 * - Try it's parameter hints name an exclusive bound ("> 0" of nearby-cities' radius_km);
 * - "Layers in each environment" on an API page wraps the layers production cannot read: the
 *   first few, and the others behind "and N more", with no sideways scrolling.
 */
import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { closeDb, db } from "./design-helpers";
import { expectAccessible } from "./support/a11y";
import { DEMO, STORAGE } from "./support/env";

// In order in one worker, but a failure does not skip the tests after it (a new worker uploads the layers again).
test.describe.configure({ mode: "default" });

const DESIGN = `/design/${DEMO.organization}/${DEMO.workspace}`;
const ROUTE = `/api/design/${DEMO.organization}/${DEMO.workspace}/layers`;
const tag = randomBytes(3).toString("hex");
/** Seven point layers; "aa" sorts them before every demo layer, whatever the case. */
const LAYERS = Array.from({ length: 7 }, (_, i) => ({ id: `e2e-aa-${tag}-${i}`, name: `aa e2e points ${tag} ${i}` }));

let page: Page;

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext({ storageState: STORAGE.designer })).newPage();
  for (const l of LAYERS) {
    const res = await page.request.post(`${ROUTE}?id=${l.id}&name=${encodeURIComponent(l.name)}&format=csv&replace=1`, {
      data: "name,lon,lat\nBern,7.447,46.948\n",
      headers: { "content-type": "text/csv" },
    });
    expect([200, 201], await res.text()).toContain(res.status());
  }
});
test.afterAll(async () => {
  for (const l of LAYERS) await page.request.delete(`${ROUTE}/${l.id}`);
  await page.context().close();
  await closeDb();
});

test("the Layers page lists names case-insensitively", async () => {
  await page.goto(`${DESIGN}/layers`);
  const names = await page.getByRole("row").evaluateAll((rows) => rows.slice(1).map((r) => r.querySelector("td")?.textContent ?? ""));
  const mine = names.findIndex((n) => n.startsWith(LAYERS[0]!.name));
  const world = names.findIndex((n) => n.startsWith("World cities"));
  expect(mine, names.join(" | ")).toBeGreaterThanOrEqual(0);
  expect(mine, "a lower-case name before 'World cities'").toBeLessThan(world);
});

test("Run the flow starts a layer input on a layer production can read, as Try it does", async () => {
  await page.goto(`${DESIGN}/flows/new`);
  const panel = page.getByTestId("flow-run-panel");
  const select = panel.getByLabel("Layer for cities");
  // The example's cities input takes points: ours come before world-cities in the list, but only world-cities is readable.
  await expect(select.locator(`option[value="${LAYERS[0]!.id}"]`)).toHaveCount(1);
  const values = await select.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(values.indexOf(LAYERS[0]!.id)).toBeLessThan(values.indexOf("world-cities"));
  await expect(select).toHaveValue("world-cities");
});

/** The design tool's page of the demo API nearby-cities. */
async function openNearbyCities(): Promise<void> {
  const api = (await db().query(`SELECT id FROM flow_api WHERE slug = 'nearby-cities' ORDER BY "createdAt" LIMIT 1`)).rows[0].id;
  await page.goto(`${DESIGN}/apis/${api}`);
}

test("Try it's hint names an exclusive lower bound", async () => {
  await openNearbyCities();
  await expect(page.getByText("number, > 0, ≤ 500, default 25")).toBeVisible();
  await expect(page.getByLabel("Layer for cities")).toHaveValue("world-cities");
});

test("many layers production cannot read yet wrap: a few, then the others behind 'and N more'", async () => {
  await openNearbyCities();

  const cell = page.getByTestId("unreadable-production").getByRole("cell").nth(1);
  await expect(cell).toContainText(`${LAYERS[0]!.name} (${LAYERS[0]!.id})`);
  const table = page.getByRole("table", { name: "Layers each environment cannot read yet" });
  const fits = () => table.evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth);
  expect(await fits(), "the table fits its card (no sideways scrolling)").toBe(true);
  const more = cell.getByText(/^and \d+ more$/);
  await expect(more).toBeVisible();
  const last = cell.getByText(LAYERS[6]!.id, { exact: true });
  await expect(last).toBeHidden(); // until asked for
  // With the keyboard: the summary opens the rest, still wrapped.
  await more.focus();
  await page.keyboard.press("Enter");
  await expect(last).toBeVisible();
  expect(await fits(), "the table fits its card with every layer shown").toBe(true);
  await expectAccessible(page, "the API page with many unreadable layers");
});
