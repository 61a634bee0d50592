/**
 * The console's dialogs give keyboard focus back to what opened them, in Chromium, as the demo
 * admin. The "shown once" key dialog opens when the server has made the key, and the button
 * that started it was disabled meanwhile; closing it (Escape or its button) gives focus back to
 * that button (Create key, the key's Rotate; after a rotation that stopped the old key at
 * once, the new key's Rotate), not to <body>. The rotate and rename dialogs, opened from a
 * row's button, give it back to that button. (A file of its own: console.spec.ts runs
 * serially, and a failure there would skip these.)
 */
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { DEMO, STORAGE } from "./support/env";
import { sql } from "./support/users";

const CONSOLE = `/console/${DEMO.organization}/${DEMO.environment}`;

/** A consumer of the test's own, so what it does bothers no other test. */
async function newConsumer(): Promise<string> {
  const name = `E2E focus ${randomBytes(3).toString("hex")}`;
  await sql().query(
    `INSERT INTO consumer (id, "environmentId", slug, name)
     SELECT gen_random_uuid(), e.id, $1, $2 FROM environment e JOIN organization o ON o.id = e."organizationId" WHERE o.slug = $3 AND e.slug = $4`,
    [name.toLowerCase().replaceAll(" ", "-"), name, DEMO.organization, DEMO.environment],
  );
  return name;
}

test.use({ storageState: STORAGE.admin });

test("the key shown once gives focus back to the button that opened it: Create key, Rotate, or the new key's Rotate", async ({ page }) => {
  const name = await newConsumer();
  await page.goto(`${CONSOLE}/keys`);
  const dialog = page.getByRole("dialog");
  const shownPrefix = async () => (await dialog.getByLabel("API key").inputValue()).slice(0, 12);

  // Create key, then Escape.
  await page.getByLabel("Consumer").selectOption({ label: name });
  const create = page.getByRole("button", { name: "Create key" });
  await create.click();
  await expect(dialog.getByText("This is the only time the key is shown")).toBeVisible();
  const prefix = await shownPrefix();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(create).toBeFocused();

  // Rotate, cancelled: back on its Rotate button.
  const rotate = page.getByRole("button", { name: `Rotate key ${prefix}`, exact: true });
  await rotate.click();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(rotate).toBeFocused();

  // Rotated with an overlap: the old key keeps its Rotate button, which gets focus back.
  await rotate.click();
  await dialog.getByRole("button", { name: "Rotate key", exact: true }).click();
  await expect(dialog.getByText("This is the only time the key is shown")).toBeVisible();
  const second = await shownPrefix();
  await expect(page.locator(`tr[data-key-prefix="${second}"]`)).toHaveCount(1);
  await dialog.getByRole("button", { name: "I have stored the key" }).click();
  await expect(rotate).toBeFocused();

  // Rotated with no overlap: the old key stops at once, so focus goes to the new key's Rotate.
  const rotateSecond = page.getByRole("button", { name: `Rotate key ${second}`, exact: true });
  await rotateSecond.click();
  await dialog.getByLabel("Overlap").selectOption({ label: "None: the old key stops now" });
  await dialog.getByRole("button", { name: "Rotate key", exact: true }).click();
  await expect(dialog.getByText("This is the only time the key is shown")).toBeVisible();
  const third = await shownPrefix();
  await expect(page.locator(`tr[data-key-prefix="${third}"]`)).toHaveCount(1);
  await expect(rotateSecond).toHaveCount(0);
  await dialog.getByRole("button", { name: "I have stored the key" }).click();
  await expect(page.getByRole("button", { name: `Rotate key ${third}`, exact: true })).toBeFocused();
});

test("the rename dialog, opened from a consumer's Rename button, gives focus back to it", async ({ page }) => {
  const name = await newConsumer();
  await page.goto(`${CONSOLE}/consumers`);
  const rename = page.getByRole("button", { name: `Rename ${name}`, exact: true });
  await rename.click();
  await expect(page.getByRole("dialog", { name: `Rename ${name}` })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(rename).toBeFocused();
});
