/** Signing in: redirects, success, one answer for wrong credentials, keyboard use, throttling. */
import { expect, test } from "@playwright/test";
import { DEMO, USERS } from "./support/env";
import { expectAccessible } from "./support/a11y";
import { signIn, signInAndLand } from "./support/sign-in";
import { createUser } from "./support/users";

const WRONG = "Wrong email or password.";

test("signed out, the design tool, the console and the account page redirect to sign-in with the page as callback", async ({ request }) => {
  const cases: [string, string][] = [
    ["/design", "/design"],
    ["/console", "/console"],
    [`/console/${DEMO.organization}/${DEMO.environment}/keys`, `/console/${DEMO.organization}/${DEMO.environment}/keys`],
    [`/design/${DEMO.organization}/${DEMO.workspace}/layers`, `/design/${DEMO.organization}/${DEMO.workspace}/layers`],
    ["/account", "/account"],
  ];
  for (const [path, callback] of cases) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(307);
    const location = new URL(res.headers()["location"]!, "http://x");
    expect(location.pathname, path).toBe("/sign-in");
    expect(location.searchParams.get("callbackUrl"), path).toBe(callback);
  }
  const me = await request.get("/api/me");
  expect(me.status()).toBe(401);
  expect(me.headers()["content-type"]).toContain("application/problem+json");
});

test("after signing in, the page asked for opens; each role lands in the right place", async ({ browser }) => {
  const admin = await browser.newContext();
  const page = await admin.newPage();
  await page.goto(`/console/${DEMO.organization}/${DEMO.environment}/keys`);
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
  await expectAccessible(page, "the sign-in page");
  await signIn(page, USERS.admin.email, USERS.admin.password);
  await expect(page).toHaveURL(`/console/${DEMO.organization}/${DEMO.environment}/keys`);
  await expect(page.getByRole("heading", { level: 1, name: "Keys" })).toBeVisible();
  await page.goto("/console");
  await expect(page).toHaveURL(`/console/${DEMO.organization}/${DEMO.environment}/apis`);
  await admin.close();

  const designer = await browser.newContext();
  const page2 = await designer.newPage();
  await page2.goto("/sign-in");
  await signIn(page2, USERS.designer.email.toUpperCase(), USERS.designer.password); // emails are case-insensitive
  await expect(page2).toHaveURL(`/design/${DEMO.organization}/${DEMO.workspace}/flows`);
  await expect(page2.getByRole("button", { name: /User menu/ })).toContainText("Demo Designer");
  await designer.close();
});

test("a wrong password and an unknown email get the same message and no session", async ({ page }) => {
  const user = await createUser("designer", "wrong");
  await page.goto("/sign-in");
  await signIn(page, user.email, "not-the-password");
  await expect(page.locator("#sign-in-error")).toHaveText(WRONG);
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByLabel("Password")).toHaveValue("");
  await expect(page.getByLabel("Password")).toBeFocused();

  await signIn(page, `nobody-${Date.now()}@demo.local`, "not-the-password");
  await expect(page.locator("#sign-in-error")).toHaveText(WRONG);
  const cookies = await page.context().cookies();
  expect(cookies.some((c) => c.name.includes("session-token"))).toBe(false);
  expect((await page.request.get("/api/me")).status()).toBe(401);
  await expectAccessible(page, "the sign-in page with an error");
});

test("the form says what is missing before asking the server", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Enter your email.")).toBeVisible();
  await expect(page.getByText("Enter your password.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Enter a valid email address.")).toBeVisible();
});

test("signing in works with the keyboard alone", async ({ page }) => {
  await page.goto("/sign-in");
  await expect(page.getByLabel("Email")).toBeFocused();
  await page.keyboard.type(USERS.designer.email);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Password")).toBeFocused();
  await page.keyboard.type(USERS.designer.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(`/design/${DEMO.organization}/${DEMO.workspace}/flows`);
});

test("repeated failures are throttled per email and address, also for unknown emails, while others still sign in", async ({ browser }) => {
  const user = await createUser("designer", "throttle");
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/sign-in");
  for (let i = 0; i < 5; i++) {
    await signIn(page, user.email, `wrong-${i}`);
    await expect(page.locator("#sign-in-error")).toHaveText(WRONG);
  }
  // The sixth attempt is refused even with the right password.
  await signIn(page, user.email, user.password);
  await expect(page.locator("#sign-in-error")).toHaveText(/Too many failed sign-ins\. Try again in 1[45] minutes\./);
  await expect(page).toHaveURL(/\/sign-in/);

  // An unknown email is throttled the same way, so throttling reveals nothing either.
  const nobody = `nobody-${Date.now()}@demo.local`;
  for (let i = 0; i < 5; i++) {
    await signIn(page, nobody, `wrong-${i}`);
    await expect(page.locator("#sign-in-error")).toHaveText(WRONG);
  }
  await signIn(page, nobody, "anything");
  await expect(page.locator("#sign-in-error")).toHaveText(/Too many failed sign-ins/);
  await context.close();

  // Another user from the same address is not affected.
  const other = await createUser("designer", "unthrottled");
  const page2 = await (await browser.newContext()).newPage();
  await page2.goto("/sign-in");
  await signInAndLand(page2, other.email, other.password);
  await expect(page2).toHaveURL(`/design/${DEMO.organization}/${DEMO.workspace}/flows`);
});

test("a callback to another site is ignored", async ({ page }) => {
  await page.goto("/sign-in?callbackUrl=" + encodeURIComponent("https://evil.example/steal"));
  await signIn(page, USERS.designer.email, USERS.designer.password);
  await expect(page).toHaveURL(`/design/${DEMO.organization}/${DEMO.workspace}/flows`);
});
