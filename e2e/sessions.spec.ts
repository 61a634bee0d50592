/** Sign-out, sign out everywhere and password changes: what a session token may still do afterwards. */
import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEMO, USERS } from "./support/env";
import { expectAccessible } from "./support/a11y";
import { signInAndLand } from "./support/sign-in";
import { createUser, sessionVersion } from "./support/users";

async function signedInPage(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto("/sign-in");
  await signInAndLand(page, email, password);
  return page;
}

test("signing out from the user menu ends the session", async ({ browser }) => {
  const page = await signedInPage(browser, USERS.designer.email, USERS.designer.password);
  await page.getByRole("button", { name: /User menu/ }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/design");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fdesign$/);
  expect((await page.request.get("/api/me")).status()).toBe(401);
});

test("sign out everywhere ends the session in another browser at once", async ({ browser }) => {
  const user = await createUser("admin", "everywhere");
  const a = await signedInPage(browser, user.email, user.password);
  const b = await signedInPage(browser, user.email, user.password);
  expect((await b.request.get("/api/me")).status()).toBe(200);
  const before = await sessionVersion(user.id);

  await a.goto("/account");
  await expectAccessible(a, "the account page");
  await a.getByRole("button", { name: "Sign out everywhere" }).click();
  const dialog = a.getByRole("dialog", { name: "Sign out everywhere?" });
  await expect(dialog).toBeVisible();
  await expectAccessible(a, "the sign-out-everywhere dialog");
  await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(a).toHaveURL(/\/sign-in$/);
  expect(await sessionVersion(user.id)).toBe(before + 1);

  // B still holds its cookie, but the token's session version is stale now.
  expect((await b.context().cookies()).some((c) => c.name.includes("session-token"))).toBe(true);
  expect((await b.request.get("/api/me")).status()).toBe(401);
  await b.goto(`/console/${DEMO.organization}/${DEMO.environment}/apis`);
  await expect(b).toHaveURL(/\/sign-in\?callbackUrl=/);

  // Signing in again works.
  await signInAndLand(b, user.email, user.password);
  await expect(b).toHaveURL(`/console/${DEMO.organization}/${DEMO.environment}/apis`);
});

test("changing the password checks the current one, keeps this browser signed in and signs out the others", async ({ browser }) => {
  const user = await createUser("designer", "password");
  const a = await signedInPage(browser, user.email, user.password);
  const b = await signedInPage(browser, user.email, user.password);
  await a.goto("/account");

  const form = a.locator("form", { has: a.getByRole("button", { name: "Change password" }) });
  await form.getByLabel("Current password").fill("wrong-current");
  await form.getByLabel("New password", { exact: true }).fill("a-new-password-1");
  await form.getByLabel("Repeat the new password").fill("a-new-password-2");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText("The two new passwords differ.")).toBeVisible();

  await form.getByLabel("Repeat the new password").fill("a-new-password-1");
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(form.getByText("The current password is wrong.")).toBeVisible();
  await expect(form.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Current password").fill(user.password);
  await form.getByRole("button", { name: "Change password" }).click();
  await expect(a.getByText("Password changed. Other browsers are signed out.")).toBeVisible();

  expect((await a.request.get("/api/me")).status()).toBe(200);
  expect((await b.request.get("/api/me")).status()).toBe(401);

  const c = await (await browser.newContext()).newPage();
  await c.goto("/sign-in");
  await c.getByLabel("Email").fill(user.email);
  await c.getByLabel("Password").fill(user.password);
  await c.getByRole("button", { name: "Sign in" }).click();
  await expect(c.locator("#sign-in-error")).toHaveText("Wrong email or password.");
  await signInAndLand(c, user.email, "a-new-password-1");
});
