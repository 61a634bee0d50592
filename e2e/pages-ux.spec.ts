/**
 * The page defects users tripped on (issue 25, items 1 and 10-15), in Chromium:
 * - every page, in the light and the dark theme: axe (WCAG 2.1 A/AA and best practices, with
 *   `label-content-name-mismatch` for WCAG 2.5.3), no serious or critical finding; at 390 px
 *   wide no sideways scrolling, and the user menu and every section tab on screen;
 * - the Graph tab's nodes and zoom controls follow the theme;
 * - an API page loads without a hydration error (React #418);
 * - unknown flow, API, layer and run ids answer 404; a favicon is served;
 * - the recent Try-it runs update without a reload and open;
 * - the delete dialog of a flow no API uses says so without "They will show";
 * - the Add layer dialog derives name and id from each chosen file and asks before replacing.
 * Axe counts go to `<shots>/axe/*.json` and screenshots to `<shots>/` (`UX_SHOTS_DIR`,
 * default .data/screenshots/ux) for looking at by hand.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { DEMO, ROOT, STORAGE, type TRole } from "./support/env";
import { sql } from "./support/users";
import { callPublished } from "./design-helpers";

const SHOTS = process.env.UX_SHOTS_DIR ?? path.join(ROOT, ".data/screenshots/ux");
const CONSOLE = `/console/${DEMO.organization}/${DEMO.environment}`;
const DESIGN = `/design/${DEMO.organization}/${DEMO.workspace}`;
const PHONE = { width: 390, height: 844 };

interface TIds {
  flowId: string;
  apiId: string;
  runId: string | null;
}

async function demoIds(): Promise<TIds> {
  const flow = await sql().query<{ id: string }>(
    `SELECT f.id FROM flow f JOIN workspace w ON w.id = f."workspaceId" JOIN organization o ON o.id = w."organizationId"
     WHERE o.slug = 'demo' AND w.slug = 'demo' AND f.state = 'active' ORDER BY f."createdAt" LIMIT 1`,
  );
  const api = await sql().query<{ id: string }>(`SELECT id FROM flow_api WHERE slug = 'nearby-cities' ORDER BY "createdAt" LIMIT 1`);
  const run = await sql().query<{ id: string }>(
    `SELECT r.id FROM run r JOIN environment e ON e.id = r."environmentId" WHERE e.slug = 'production' AND r.mode <> 'try' ORDER BY r."createdAt" DESC LIMIT 1`,
  );
  return { flowId: flow.rows[0]!.id, apiId: api.rows[0]!.id, runId: run.rows[0]?.id ?? null };
}

/** A revoked key of the demo consumer, so the keys page shows the "Revoked" badge. */
async function ensureRevokedKey(): Promise<void> {
  await sql().query(
    `INSERT INTO api_key (id, "consumerId", name, prefix, hash, "revokedAt")
     SELECT $1, c.id, 'E2E revoked key', 'fapi_e2erev', $2, now() FROM consumer c JOIN environment e ON e.id = c."environmentId"
     WHERE c.slug = 'demo-consumer' AND e.slug = 'production' AND NOT EXISTS (SELECT 1 FROM api_key WHERE name = 'E2E revoked key')`,
    [randomUUID(), randomBytes(32).toString("hex")],
  );
}

/** [name for files, path (ids filled in), who, an action before checking] */
type TPage = [string, (ids: TIds) => string | null, TRole | null, ((page: Page) => Promise<void>)?];
const PAGES: TPage[] = [
  ["design-flows", () => `${DESIGN}/flows`, "designer"],
  ["design-new-flow", () => `${DESIGN}/flows/new`, "designer"],
  [
    "design-flow-editor",
    (i) => `${DESIGN}/flows/${i.flowId}`,
    "designer",
    async (page) => {
      await page.getByRole("tab", { name: "JSON" }).click();
      await expect(page.getByTestId("flow-editor")).toBeVisible();
    },
  ],
  [
    "design-flow-canvas",
    (i) => `${DESIGN}/flows/${i.flowId}`,
    "designer",
    async (page) => {
      await page.getByTestId("flow-canvas").locator(".react-flow__node").first().click();
      await expect(page.getByTestId("node-inspector")).toBeVisible();
    },
  ],
  [
    "design-flow-graph",
    (i) => `${DESIGN}/flows/${i.flowId}`,
    "designer",
    async (page) => {
      await page.getByRole("tab", { name: "Graph" }).click();
      await expect(page.locator(".react-flow__node").first()).toBeVisible();
    },
  ],
  ["design-layers", () => `${DESIGN}/layers`, "designer"],
  ["design-layer", () => `${DESIGN}/layers/world-cities`, "designer"],
  ["design-apis", () => `${DESIGN}/apis`, "designer"],
  ["design-api", (i) => `${DESIGN}/apis/${i.apiId}`, "designer", async (page) => await expect(page.getByTestId("curl")).toBeVisible()],
  ["console-apis", () => `${CONSOLE}/apis`, "admin"],
  ["console-api", () => `${CONSOLE}/apis/nearby-cities`, "admin"],
  ["console-consumers", () => `${CONSOLE}/consumers`, "admin"],
  ["console-keys", () => `${CONSOLE}/keys`, "admin", async (page) => await expect(page.getByText("Revoked", { exact: true }).first()).toBeVisible()],
  ["console-usage", () => `${CONSOLE}/usage`, "admin"],
  ["console-runs", () => `${CONSOLE}/runs`, "admin"],
  ["console-run", (i) => (i.runId ? `${CONSOLE}/runs/${i.runId}` : null), "admin"],
  ["console-ai-access", () => `${CONSOLE}/ai-access`, "admin"],
  ["console-settings", () => `${CONSOLE}/settings`, "admin"],
  ["account", () => "/account", "admin"],
  ["home", () => "/", "admin"],
  ["home-visitor", () => "/", null],
  ["sign-in", () => "/sign-in", null],
  ["docs", () => `/docs/${DEMO.organization}/${DEMO.environment}/nearby-cities`, null],
  ["not-found", () => "/no/such/page", "designer"],
  ["not-allowed", () => CONSOLE, "designer"],
];

/** Axe with the WCAG 2.1 A/AA rules and best practices, plus the experimental WCAG 2.5.3 rule axe leaves off by default. */
async function seriousFindings(page: Page): Promise<{ rule: string; target: string }[]> {
  // The title can be missing for a moment after a client-side navigation (axe once saw none on the console keys page).
  await expect(page).toHaveTitle(/\S/);
  const tagged = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .exclude("[data-sonner-toaster]")
    .analyze();
  const labelInName = await new AxeBuilder({ page }).withRules(["label-content-name-mismatch"]).exclude("[data-sonner-toaster]").analyze();
  return [...tagged.violations, ...labelInName.violations]
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((n) => ({ rule: v.id, target: n.target.join(" ") })));
}

let ids: TIds;
test.beforeAll(async () => {
  await ensureRevokedKey();
  ids = await demoIds();
  if (!ids.runId) {
    await callPublished("nearby-cities", { inputs: { places: { rows: [{ id: "bern", lon: 7.447, lat: 46.948 }] }, cities: { layer_id: "world-cities" } } });
    ids = await demoIds();
  }
  await mkdir(path.join(SHOTS, "axe"), { recursive: true });
});

for (const [name, pathOf, role, before] of PAGES) {
  for (const colorScheme of ["light", "dark"] as const) {
    test.describe(`${name} (${colorScheme})`, () => {
      test.use({ colorScheme, storageState: role ? STORAGE[role] : { cookies: [], origins: [] } });
      test("has no serious axe finding and no sideways scrolling at 390 px", async ({ page }) => {
        const target = pathOf(ids);
        test.skip(target === null, "no run in production to show");
        await page.goto(target!);
        await expect(page.locator("h1").first()).toBeVisible();
        await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
        if (before) await before(page);
        const findings = await seriousFindings(page);
        await writeFile(path.join(SHOTS, "axe", `${name}-${colorScheme}.json`), JSON.stringify(findings, null, 2));

        await page.setViewportSize(PHONE);
        await page.waitForFunction(() => document.documentElement.clientWidth <= 390);
        await page.screenshot({ path: path.join(SHOTS, `${name}-${colorScheme}-390.png`), fullPage: true, animations: "disabled" });
        const wide = await page.evaluate(() => {
          const w = document.documentElement.clientWidth;
          return {
            scrollWidth: document.documentElement.scrollWidth,
            // The outermost elements reaching past the window, to say what to fix.
            culprits: [...document.querySelectorAll("body *")]
              .filter((e) => e.getBoundingClientRect().right > w + 1 && !(e.parentElement && e.parentElement.getBoundingClientRect().right > w + 1))
              .slice(0, 5)
              .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].slice(0, 4).join(".")}`),
          };
        });
        await writeFile(path.join(SHOTS, "axe", `${name}-${colorScheme}-390.json`), JSON.stringify(wide, null, 2));
        // Signed-in pages with the shell's header (the not-found page has none).
        if (role && (await page.locator("header").count()) > 0) {
          const menu = page.getByRole("button", { name: /User menu/ });
          await expect(menu).toBeInViewport({ ratio: 1 });
        }
        for (const nav of await page.getByRole("navigation", { name: /sections$/ }).all()) {
          for (const link of await nav.getByRole("link").all()) await expect(link).toBeInViewport({ ratio: 1 });
        }
        expect(findings, `serious axe findings of ${name} (${colorScheme})`).toEqual([]);
        expect(wide.scrollWidth, `page width at 390 px (${wide.culprits.join(", ")})`).toBeLessThanOrEqual(390);
      });
    });
  }
}

/** WCAG 2.1 relative luminance of an sRGB colour given as [r, g, b] in 0..255. */
function luminance([r, g, b]: number[]): number {
  const lin = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
}
/** WCAG 2.1 contrast ratio of two colours. */
const contrast = (a: number[], b: number[]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

test.describe("the Graph tab in the dark theme", () => {
  test.use({ colorScheme: "dark", storageState: STORAGE.designer });
  test("draws dark nodes with readable labels and visible zoom controls", async ({ page }) => {
    await page.goto(`${DESIGN}/flows/${ids.flowId}`);
    await page.getByRole("tab", { name: "Graph" }).click();
    const node = page.locator(".react-flow__node").first();
    await expect(node).toBeVisible();
    const colours = await page.evaluate(() => {
      // Computed colours may be oklch(); a 1-pixel canvas turns any CSS colour into sRGB bytes.
      const ctx = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
      const rgb = (css: string) => {
        ctx.clearRect(0, 0, 1, 1);
        ctx.fillStyle = css;
        ctx.fillRect(0, 0, 1, 1);
        return [...ctx.getImageData(0, 0, 1, 1).data].slice(0, 3);
      };
      const style = (sel: string) => getComputedStyle(document.querySelector(sel)!);
      const n = style(".react-flow__node");
      const button = style(".react-flow__controls-button");
      return { nodeBg: rgb(n.backgroundColor), nodeText: rgb(n.color), buttonBg: rgb(button.backgroundColor), icon: rgb(button.color) };
    });
    expect(luminance(colours.nodeBg), `node background ${colours.nodeBg}`).toBeLessThan(0.2);
    expect(contrast(colours.nodeBg, colours.nodeText)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colours.buttonBg, colours.icon), `zoom icon ${colours.icon} on ${colours.buttonBg}`).toBeGreaterThanOrEqual(3);
    await page.getByTestId("flow-graph").screenshot({ path: path.join(SHOTS, "graph-dark.png") });
  });
});

test.describe("an API page loaded directly", () => {
  test.use({ storageState: STORAGE.designer });
  test("hydrates without an error and shows the full address in the curl call", async ({ page }) => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(`${DESIGN}/apis/${ids.apiId}`);
    const origin = new URL(page.url()).origin;
    await expect(page.getByTestId("curl")).toContainText(`curl -X POST "${origin}/public/api/`);
    // Hydration runs after the load; give React the chance to report a mismatch.
    await page.waitForLoadState("networkidle");
    expect(errors.filter((e) => /418|hydrat/i.test(e))).toEqual([]);
  });
});

test.describe("unknown ids", () => {
  test.use({ storageState: STORAGE.admin });
  test("answer 404 with the not-found page, and a favicon is served", async ({ page, request }) => {
    const missing = [
      `${DESIGN}/flows/${randomUUID()}`,
      `${DESIGN}/flows/not-a-uuid`,
      `${DESIGN}/apis/${randomUUID()}`,
      `${DESIGN}/layers/no-such-layer`,
      `${CONSOLE}/apis/no-such-api`,
      `${CONSOLE}/runs/${randomUUID()}`,
    ];
    for (const url of missing) {
      const res = await page.goto(url);
      expect(res?.status(), url).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    }
    await page.goto(`${DESIGN}/flows`);
    const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
    expect(icon).toBeTruthy();
    const res = await request.get(icon!);
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/image\//);
  });
});

test.describe("the delete dialog of a flow that no API uses", () => {
  test.use({ storageState: STORAGE.designer });
  test("says so without speaking of the APIs' pages", async ({ page }) => {
    await page.goto(`${DESIGN}/flows/new`);
    const name = `E2E lonely ${randomBytes(3).toString("hex")}`;
    await page.getByLabel("Name").fill(name);
    await page.getByRole("button", { name: "Create flow" }).click();
    await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
    await page.getByRole("button", { name: "Move to trash" }).click();
    const trash = page.getByRole("dialog");
    await expect(trash).toContainText("No API uses this flow.");
    await expect(trash).not.toContainText("Their pages");
    await trash.getByRole("button", { name: "Move to trash" }).click();
    await expect(trash).toBeHidden();
    await page.getByRole("button", { name: "Delete permanently" }).click();
    const del = page.getByRole("dialog");
    await expect(del).toContainText("No API uses this flow.");
    await expect(del).not.toContainText("They will show");
    await del.getByRole("button", { name: "Cancel" }).click();
  });
});

test.describe("the recent Try-it runs", () => {
  test.use({ storageState: STORAGE.designer });
  test("show the run completed without a reload, and open", async ({ page }) => {
    await page.goto(`${DESIGN}/apis/${ids.apiId}`);
    await page.getByRole("button", { name: "Run" }).click();
    await expect(page.getByTestId("run-state")).toHaveText("completed", { timeout: 120_000 });
    const table = page.getByRole("table", { name: "Recent Try-it runs" });
    const newest = table.getByRole("row").nth(1);
    await expect(newest).toContainText("completed");
    await newest.getByRole("button").click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("completed");
    await expect(dialog.getByRole("link", { name: /places/ })).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, "try-run-dialog-light.png") });
  });
});

test.describe("the Add layer dialog", () => {
  test.use({ storageState: STORAGE.designer });
  test("derives name and id from each chosen file and confirms a replacement, naming what reads the layer", async ({ page }) => {
    const tag = randomBytes(3).toString("hex");
    const csv = (n: number) => Buffer.from(`name,lon,lat\n${Array.from({ length: n }, (_, i) => `P${i},${7 + i / 10},46`).join("\n")}\n`);
    await page.goto(`${DESIGN}/layers`);
    await page.getByRole("button", { name: "Add layer" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("File").setInputFiles({ name: `Stores ${tag}.csv`, mimeType: "text/csv", buffer: csv(3) });
    await expect(dialog.getByLabel("Name")).toHaveValue(`Stores ${tag}`);
    await expect(dialog.getByLabel("Layer id")).toHaveValue(`stores-${tag}`);
    await dialog.getByLabel("File").setInputFiles({ name: `Depots ${tag}.csv`, mimeType: "text/csv", buffer: csv(2) });
    await expect(dialog.getByLabel("Name")).toHaveValue(`Depots ${tag}`);
    await expect(dialog.getByLabel("Layer id")).toHaveValue(`depots-${tag}`);
    // An id the user typed for this file stays.
    await dialog.getByLabel("Layer id").fill(`mine-${tag}`);
    await expect(dialog.getByLabel("Layer id")).toHaveValue(`mine-${tag}`);
    // An existing id: the upload waits for a confirmation naming the layer and its readers.
    await dialog.getByLabel("Layer id").fill("world-cities");
    let posted = false;
    page.on("request", (r) => r.method() === "POST" && r.url().includes("/layers?") && (posted = true));
    await dialog.getByRole("button", { name: "Upload" }).click();
    const confirm = page.getByRole("alertdialog");
    await expect(confirm).toContainText("World cities");
    await expect(confirm).toContainText("production");
    await expect(confirm).toContainText("nearby-cities");
    await page.screenshot({ path: path.join(SHOTS, "replace-confirm-light.png") });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect(posted).toBe(false);

    // A first upload of a new id, then the same id again: confirmed, sent with replace=1.
    await dialog.getByLabel("Layer id").fill(`stores-${tag}`);
    await dialog.getByRole("button", { name: "Upload" }).click();
    await expect(dialog).toBeHidden();
    await page.getByRole("button", { name: "Add layer" }).click();
    await dialog.getByLabel("File").setInputFiles({ name: `Stores ${tag}.csv`, mimeType: "text/csv", buffer: csv(4) });
    await dialog.getByRole("button", { name: "Upload" }).click();
    // The stored layer is named after the file chosen when it was uploaded ("Depots ..."), whatever the new file is called.
    await expect(page.getByRole("alertdialog")).toContainText(`Depots ${tag} (stores-${tag})`);
    const [req] = await Promise.all([
      page.waitForRequest((r) => r.method() === "POST" && r.url().includes("/layers?")),
      page
        .getByRole("alertdialog")
        .getByRole("button", { name: /Replace/ })
        .click(),
    ]);
    expect(new URL(req.url()).searchParams.get("replace")).toBe("1");
    await expect(dialog).toBeHidden();
    await expect(
      page
        .getByRole("row", { name: new RegExp(`stores-${tag}`) })
        .getByRole("cell")
        .nth(2),
    ).toHaveText("4"); // Items

    // A 409 from the server (a layer added meanwhile) also asks.
    let refused = false;
    await page.route(
      (url) => url.pathname.endsWith("/layers") && url.searchParams.has("id"),
      async (route) => {
        if (!refused && !new URL(route.request().url()).searchParams.has("replace")) {
          refused = true;
          await route.fulfill({
            status: 409,
            contentType: "application/problem+json",
            body: JSON.stringify({ status: 409, code: "layer_exists", detail: "exists" }),
          });
        } else await route.continue();
      },
    );
    await page.getByRole("button", { name: "Add layer" }).click();
    await dialog.getByLabel("File").setInputFiles({ name: `Late ${tag}.csv`, mimeType: "text/csv", buffer: csv(1) });
    await dialog.getByRole("button", { name: "Upload" }).click();
    await expect(page.getByRole("alertdialog")).toContainText(`late-${tag}`);
    await page
      .getByRole("alertdialog")
      .getByRole("button", { name: /Replace/ })
      .click();
    await expect(dialog).toBeHidden();
  });
});
