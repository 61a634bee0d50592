/** Roles per organization, on pages and on server actions called directly. */
import { expect, test } from "@playwright/test";
import { DEMO, STORAGE } from "./support/env";
import { expectAccessible } from "./support/a11y";
import { sql } from "./support/users";

const CONSOLE = `/console/${DEMO.organization}/${DEMO.environment}`;
const DESIGN = `/design/${DEMO.organization}/${DEMO.workspace}`;

async function corsOrigins(): Promise<string[]> {
  const { rows } = await sql().query<{ corsOrigins: string[] }>(
    `SELECT e."corsOrigins" FROM environment e JOIN organization o ON o.id = e."organizationId" WHERE o.slug = $1 AND e.slug = $2`,
    [DEMO.organization, DEMO.environment],
  );
  return rows[0]!.corsOrigins;
}

/** The design tool's id of the demo API cities-in-area. */
async function demoApiId(): Promise<string> {
  const { rows } = await sql().query<{ id: string }>(`SELECT id FROM flow_api WHERE slug = 'cities-in-area' ORDER BY "createdAt" LIMIT 1`);
  return rows[0]!.id;
}

test.describe("a designer", () => {
  test.use({ storageState: STORAGE.designer });

  test("gets the 'not allowed' page, with status 403, for every console URL", async ({ page }) => {
    for (const path of ["/console", `/console/${DEMO.organization}`, CONSOLE, `${CONSOLE}/keys`, `${CONSOLE}/ai-access`, `${CONSOLE}/settings`]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(403);
      await expect(page.getByRole("heading", { level: 1, name: "Not allowed" }), path).toBeVisible();
    }
    await expectAccessible(page, "the not-allowed page");
    await page.getByRole("link", { name: "Go to the design tool" }).click();
    await expect(page).toHaveURL(`${DESIGN}/flows`);
  });

  test("uses the design tool, without a link to the console", async ({ page }) => {
    await page.goto("/design");
    await expect(page).toHaveURL(`${DESIGN}/flows`);
    const tools = page.getByRole("navigation", { name: "Tools" });
    await expect(tools.getByRole("link", { name: "Design" })).toBeVisible();
    await expect(tools.getByRole("link", { name: "Console" })).toHaveCount(0);
    const me = await (await page.request.get("/api/me")).json();
    expect(me.memberships).toEqual([expect.objectContaining({ slug: DEMO.organization, role: "designer" })]);
  });

  test("is shown no link that leads to the console's 'Not allowed' page", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Open the design tool" })).toBeVisible();
    await expect(page.getByText("Only admins of an organization open the console.")).toBeVisible();
    await expect(page.getByRole("link", { name: "Open the console" })).toHaveCount(0);

    await page.goto(`${DESIGN}/apis/${await demoApiId()}`);
    const who = page.getByTestId("unreadable-production").getByRole("cell").last();
    await expect(who).toHaveText("An admin of the organization, in the console");
    await expect(page.locator('main a[href^="/console"]')).toHaveCount(0);
  });
});

test.describe("an admin", () => {
  test.use({ storageState: STORAGE.admin });

  test("uses the console and the design tool", async ({ page }) => {
    await page.goto("/console");
    await expect(page).toHaveURL(`${CONSOLE}/apis`);
    await page.getByRole("navigation", { name: "Tools" }).getByRole("link", { name: "Design" }).click();
    await expect(page).toHaveURL(`${DESIGN}/flows`);
  });

  test("is shown the links into the console", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("link", { name: "Open the console" }).click();
    await expect(page).toHaveURL(`${CONSOLE}/apis`);

    await page.goto(`${DESIGN}/apis/${await demoApiId()}`);
    await page
      .getByTestId("unreadable-production")
      .getByRole("link", { name: /An admin, in the console/ })
      .click();
    await expect(page).toHaveURL(`${CONSOLE}/apis`);
    await expect(page.getByRole("heading", { level: 1, name: "APIs" })).toBeVisible();
  });

  test("follows the console's links to each served API's page in the design tool", async ({ page }) => {
    await page.goto(`${CONSOLE}/apis`);
    const rows = page.getByRole("row").filter({ has: page.getByRole("link", { name: /^Design tool page of / }) });
    const targets = await rows.evaluateAll((trs) =>
      trs.map((tr) => ({
        name: tr.querySelector("td .font-medium")!.textContent!,
        href: [...tr.querySelectorAll("a")].find((a) => a.textContent!.startsWith("Design tool"))!.getAttribute("href")!,
      })),
    );
    // The demo's APIs only: other spec files publish and delete their own meanwhile.
    const demo = targets.filter((t) => ["Cities in area", "Population by country", "Nearby cities"].includes(t.name));
    expect(demo).toHaveLength(3);
    for (const t of demo) {
      // The design tool names an API by its id, not its slug.
      expect(t.href, t.name).toMatch(new RegExp(`^${DESIGN}/apis/[0-9a-f-]{36}$`));
      const res = await page.goto(t.href);
      expect(res?.status(), t.href).toBe(200);
      await expect(page.getByRole("heading", { level: 1, name: t.name })).toBeVisible();
    }

    // One API's settings page: "Open in the design tool" leads to the same page, by clicking.
    await page.goto(`${CONSOLE}/apis/cities-in-area`);
    await page.getByRole("link", { name: "Open in the design tool" }).click();
    await expect(page).toHaveURL(new RegExp(`${DESIGN}/apis/[0-9a-f-]{36}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Cities in area" })).toBeVisible();
    await expect(page.getByTestId("status-production")).toContainText("Published");
  });

  test("saves the environment's CORS origins; a bad origin is named next to the field", async ({ page }) => {
    await page.goto(`${CONSOLE}/settings`);
    const field = page.getByLabel("Allowed browser origins");
    await field.fill("https://ok.example\nnot an origin");
    await page.getByRole("button", { name: "Save origins" }).click();
    await expect(page.getByText('"not an origin" is not an origin')).toBeVisible();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    // Nothing of the refused list was saved. (Not "still empty": the server-action test below
    // may save its own origin meanwhile, in the other Playwright worker.)
    expect(await corsOrigins()).not.toContain("https://ok.example");
  });
});

test("a server action refuses a designer and a signed-out caller who POST to it directly", async ({ browser }) => {
  // Record the admin's real call of the admin-only action "update-environment-list".
  const admin = await browser.newContext({ storageState: STORAGE.admin });
  const page = await admin.newPage();
  await page.goto(`${CONSOLE}/settings`);
  await page.getByLabel("Allowed browser origins").fill("https://admin.example");
  const [call] = await Promise.all([
    page.waitForRequest((r) => r.method() === "POST" && !!r.headers()["next-action"]),
    page.getByRole("button", { name: "Save origins" }).click(),
  ]);
  await expect(page.getByText(/Saved: 1 origin/)).toBeVisible();
  expect(await corsOrigins()).toEqual(["https://admin.example"]);

  const actionId = call.headers()["next-action"]!;
  const body = call.postData()!.replace("https://admin.example", "https://designer.example");
  const replay = (storageState?: string) =>
    browser.newContext(storageState ? { storageState } : {}).then((c) =>
      c.request.post(`${CONSOLE}/settings`, {
        headers: { "next-action": actionId, "content-type": call.headers()["content-type"] ?? "text/plain;charset=UTF-8", accept: "text/x-component" },
        data: body,
        maxRedirects: 0,
      }),
    );

  const asDesigner = await replay(STORAGE.designer);
  const designerText = await asDesigner.text();
  expect(designerText).toContain('"code":"forbidden"');
  expect(designerText).toContain("Only admins of this organization may do this.");
  expect(await corsOrigins()).toEqual(["https://admin.example"]);

  const signedOut = await replay();
  expect(await signedOut.text()).toContain('"code":"unauthorized"');
  expect(await corsOrigins()).toEqual(["https://admin.example"]);

  // The same replay as the admin does change it: the refusals above were about the caller.
  const asAdmin = await replay(STORAGE.admin);
  expect(await asAdmin.text()).not.toContain("serverError");
  expect(await corsOrigins()).toEqual(["https://designer.example"]);

  await sql().query(`UPDATE environment SET "corsOrigins" = '{}' WHERE slug = $1`, [DEMO.environment]);
  await admin.close();
});

test("an organization, workspace or environment that is not the user's is not found", async ({ browser }) => {
  for (const role of ["designer", "admin"] as const) {
    const page = await (await browser.newContext({ storageState: STORAGE[role] })).newPage();
    for (const path of ["/design/other-org/demo/flows", `/design/${DEMO.organization}/no-such-workspace/flows`, "/console/other-org/production/apis"]) {
      const res = await page.goto(path);
      expect(res?.status(), `${role} ${path}`).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    }
    if (role === "admin") {
      const res = await page.goto(`/console/${DEMO.organization}/no-such-environment/apis`);
      expect(res?.status()).toBe(404);
    }
  }
});
