/** Signs in once per role through the form and saves the storage state the other tests reuse. */
import { expect, test as setup } from "@playwright/test";
import { DEMO, STORAGE, USERS, type TRole } from "./support/env";
import { signIn } from "./support/sign-in";

for (const role of ["designer", "admin"] as TRole[]) {
  setup(`sign in as the ${role}`, async ({ page }) => {
    await page.goto("/design");
    await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fdesign$/);
    await signIn(page, USERS[role].email, USERS[role].password);
    await expect(page).toHaveURL(`/design/${DEMO.organization}/${DEMO.workspace}/flows`);
    await expect(page.getByRole("heading", { level: 1, name: "Flows" })).toBeVisible();
    await page.context().storageState({ path: STORAGE[role] });
  });
}
