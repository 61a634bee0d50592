/**
 * The shell as people use it: every page reachable from its tab, every page accessible
 * (axe: no serious or critical violation) in the light theme and the main ones in the dark
 * theme, switchers and menus by keyboard, the landing page's links; screenshots of the
 * signed-in shell in both themes land in .data/screenshots/.
 */
import path from "node:path";
import { expect, test } from "@playwright/test";
import { DEMO, ROOT, STORAGE, type TRole } from "./support/env";
import { expectAccessible } from "./support/a11y";
import { sql } from "./support/users";

const CONSOLE = `/console/${DEMO.organization}/${DEMO.environment}`;
const DESIGN = `/design/${DEMO.organization}/${DEMO.workspace}`;
const DESIGN_SECTIONS = [
  ["flows", "Flows"],
  ["layers", "Layers"],
  ["apis", "APIs"],
] as const;
const CONSOLE_SECTIONS = [
  ["apis", "APIs"],
  ["consumers", "Consumers"],
  ["keys", "Keys"],
  ["usage", "Usage"],
  ["runs", "Runs"],
  ["ai-access", "AI access"],
  ["settings", "Settings"],
] as const;

/** [path, h1, who, also checked in the dark theme] */
const PAGES: [string, string, TRole | null, boolean][] = [
  ...DESIGN_SECTIONS.map(([slug, label]): [string, string, TRole, boolean] => [`${DESIGN}/${slug}`, label, "designer", slug === "flows"]),
  ...CONSOLE_SECTIONS.map(([slug, label]): [string, string, TRole, boolean] => [`${CONSOLE}/${slug}`, label, "admin", slug === "apis" || slug === "settings"]),
  ["/account", "Account", "admin", true],
  ["/", "Flow API service", "admin", true],
  ["/", "Flow API service", null, false],
  ["/sign-in", "Sign in", null, true],
  [`/docs/${DEMO.organization}/${DEMO.environment}/nearby-cities`, "Nearby cities", null, true],
  ["/no/such/page", "Page not found", "designer", false],
  [CONSOLE, "Not allowed", "designer", true],
];

for (const [pagePath, h1, role, dark] of PAGES) {
  for (const colorScheme of dark ? (["light", "dark"] as const) : (["light"] as const)) {
    test.describe(`${pagePath} as ${role ?? "a visitor"} (${colorScheme})`, () => {
      test.use({ colorScheme, storageState: role ? STORAGE[role] : { cookies: [], origins: [] } });
      test("is accessible", async ({ page }) => {
        await page.goto(pagePath);
        await expect(page.getByRole("heading", { level: 1, name: h1 })).toBeVisible();
        await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
        if (pagePath === "/account") await expect(page.getByText("Demo", { exact: true })).toBeVisible(); // loaded through GET /api/me
        await expectAccessible(page, `${pagePath} (${colorScheme})`);
      });
    });
  }
}

test.describe("an admin", () => {
  test.use({ storageState: STORAGE.admin });

  test("reaches every section from its tab, the current one marked", async ({ page }) => {
    await page.goto(`${DESIGN}/flows`);
    for (const [slug, label] of DESIGN_SECTIONS) {
      await page.getByRole("navigation", { name: "Design sections" }).getByRole("link", { name: label }).click();
      await expect(page).toHaveURL(`${DESIGN}/${slug}`);
      await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Design sections" }).getByRole("link", { name: label })).toHaveAttribute("aria-current", "page");
    }
    await page.getByRole("navigation", { name: "Tools" }).getByRole("link", { name: "Console" }).click();
    await expect(page).toHaveURL(`${CONSOLE}/apis`);
    for (const [slug, label] of CONSOLE_SECTIONS) {
      await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: label }).click();
      await expect(page).toHaveURL(`${CONSOLE}/${slug}`);
      await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible();
    }
  });

  for (const colorScheme of ["light", "dark"] as const) {
    test(`screenshots of the signed-in shell (${colorScheme})`, async ({ browser }) => {
      const context = await browser.newContext({ colorScheme, storageState: STORAGE.admin });
      const page = await context.newPage();
      const dir = path.join(ROOT, ".data/screenshots");
      await page.goto(`${DESIGN}/flows`);
      await expect(page.getByRole("heading", { level: 1, name: "Flows" })).toBeVisible();
      await page.screenshot({ path: path.join(dir, `design-${colorScheme}.png`) });
      await page.goto(`${CONSOLE}/apis`);
      await page.getByRole("button", { name: /User menu/ }).click();
      await expect(page.getByRole("menuitem", { name: "Account" })).toBeVisible();
      await page.screenshot({ path: path.join(dir, `console-${colorScheme}.png`) });
      await page.keyboard.press("Escape");
      await page.goto(`${CONSOLE}/settings`);
      await expect(page.getByLabel("Allowed browser origins")).toBeVisible();
      await page.screenshot({ path: path.join(dir, `settings-${colorScheme}.png`) });
      await page.goto("/account");
      // Other tests may add the admin to more organizations; the demo one is always there.
      await expect(page.getByRole("listitem").filter({ hasText: /^Demo/ }).getByText("Admin", { exact: true })).toBeVisible();
      await page.screenshot({ path: path.join(dir, `account-${colorScheme}.png`), fullPage: true });
      await context.close();
    });
  }

  test("the skip link, the environment switcher, the theme menu and the user menu work without a mouse", async ({ page }) => {
    await page.goto(`${CONSOLE}/keys`);
    await expect(page.getByRole("heading", { level: 1, name: "Keys" })).toBeVisible();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();

    const switcher = page.getByRole("button", { name: /Environment: Production/ });
    await switcher.focus();
    await page.keyboard.press("Enter");
    const item = page.getByRole("menuitem", { name: "Production" });
    await expect(item).toBeVisible();
    await expect(item).toHaveAttribute("href", `${CONSOLE}/keys`); // the switcher keeps the section
    await page.keyboard.press("Escape");
    await expect(switcher).toBeFocused();

    const theme = page.getByRole("button", { name: "Theme" });
    await theme.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("menuitemradio", { name: "Dark" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    // The closed menu gives focus back to its button; moving on before that, focus came back
    // under the next step and its Enter reopened the theme menu (a loaded machine, CI).
    await expect(theme).toBeFocused();

    await page.getByRole("button", { name: /User menu/ }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menuitem", { name: "Account" })).toBeFocused(); // opened by keyboard: the first item has focus
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeFocused();
    await page.keyboard.press("ArrowUp");
    // Enter before the focus moved back would activate "Sign out" (and end the shared admin session)
    await expect(page.getByRole("menuitem", { name: "Account" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/account");
  });

  test("the workspace switcher lists the organization's workspaces and keeps the section", async ({ page }) => {
    await page.goto(`${DESIGN}/layers`);
    await page.getByRole("button", { name: /Workspace: Demo workspace/ }).click();
    await expect(page.getByRole("menuitem", { name: "Demo workspace" })).toHaveAttribute("href", `${DESIGN}/layers`);
  });
});

test("the landing page leads to the design tool, the console and each published API's docs", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Open the design tool" })).toHaveAttribute("href", "/design");
  await expect(page.getByRole("link", { name: "Open the console" })).toHaveAttribute("href", "/console");
  for (const api of ["cities-in-area", "country-stats", "nearby-cities"]) {
    await expect(page.locator(`a[href="/docs/${DEMO.organization}/${DEMO.environment}/${api}"]`)).toBeVisible();
  }
  // Other specs publish APIs in organizations of their own; follow a demo one.
  await page.locator(`a[href="/docs/${DEMO.organization}/${DEMO.environment}/country-stats"]`).click();
  await expect(page).toHaveURL(/\/docs\/demo\/production\//);
  await page.goto("/");
  await page.getByRole("link", { name: "Open the console" }).click();
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fconsole$/);
});

test("each page's title names the page, its item and where it is (WCAG 2.4.2)", async ({ browser }) => {
  const one = async (query: string) => (await sql().query<{ id: string }>(query)).rows[0]!.id;
  const flowId = await one(
    `SELECT f.id FROM flow f JOIN workspace w ON w.id = f."workspaceId" WHERE w.slug = 'demo' AND f.name = 'Cities in area' ORDER BY f."createdAt" LIMIT 1`,
  );
  const apiId = await one(`SELECT id FROM flow_api WHERE slug = 'cities-in-area' ORDER BY "createdAt" LIMIT 1`);
  const consumerId = await one(
    `SELECT c.id FROM consumer c JOIN environment e ON e.id = c."environmentId" WHERE e.slug = 'production' AND c.slug = 'demo-consumer'`,
  );
  const app = "Flow API service";
  const design = `Demo workspace · Design · ${app}`;
  const consoleOf = (section: string) => `${section} · Production · Console · ${app}`;
  const titles: [TRole, string, string][] = [
    ["designer", `${DESIGN}/flows`, `Flows · ${design}`],
    ["designer", `${DESIGN}/flows/new`, `New flow · Flows · ${design}`],
    ["designer", `${DESIGN}/flows/${flowId}`, `Cities in area · Flows · ${design}`],
    ["designer", `${DESIGN}/layers`, `Layers · ${design}`],
    ["designer", `${DESIGN}/layers/world-cities`, `World cities · Layers · ${design}`],
    ["designer", `${DESIGN}/apis`, `APIs · ${design}`],
    ["designer", `${DESIGN}/apis/${apiId}`, `Cities in area · APIs · ${design}`],
    ["designer", `${DESIGN}/flows/00000000-0000-4000-8000-000000000000`, `Page not found · ${app}`],
    ["designer", `${CONSOLE}/keys`, `Not allowed · ${app}`],
    ...CONSOLE_SECTIONS.map(([slug, label]): [TRole, string, string] => ["admin", `${CONSOLE}/${slug}`, consoleOf(label)]),
    ["admin", `${CONSOLE}/apis/cities-in-area`, `Cities in area · ${consoleOf("APIs")}`],
    ["admin", `${CONSOLE}/consumers/${consumerId}/webhooks`, `Webhooks of Demo consumer · ${consoleOf("Consumers")}`],
  ];
  for (const role of ["designer", "admin"] as const) {
    const context = await browser.newContext({ storageState: STORAGE[role] });
    const page = await context.newPage();
    for (const [who, pagePath, title] of titles) {
      if (who !== role) continue;
      await page.goto(pagePath);
      await expect(page, pagePath).toHaveTitle(title);
    }
    await context.close();
  }
});
