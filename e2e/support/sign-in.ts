/** Signing in through the real form, as a person would. */
import { expect, type Page } from "@playwright/test";

export async function signIn(page: Page, email: string, password: string): Promise<void> {
  if (!page.url().includes("/sign-in")) await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Signs in and waits until the browser has left the sign-in page. */
export async function signInAndLand(page: Page, email: string, password: string): Promise<void> {
  await signIn(page, email, password);
  await expect(page).not.toHaveURL(/\/sign-in/);
}
