/**
 * Accessibility check of the page as it is now: axe-core with the WCAG 2.1 A/AA rules and best
 * practices, plus `label-content-name-mismatch` (WCAG 2.5.3 Label in Name, level A), which axe
 * marks experimental and leaves off unless named; serious and critical violations fail the test.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

export async function expectAccessible(page: Page, what: string): Promise<void> {
  // The title can be missing for a moment after a client-side navigation (axe once saw none on the console keys page).
  await expect(page).toHaveTitle(/\S/);
  // Toasts fade in and out: axe measures one mid-animation (partial opacity) as low contrast,
  // so pages are checked without the toaster; its colours are sonner's own themed defaults.
  const tagged = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .exclude("[data-sonner-toaster]")
    .analyze();
  const labelInName = await new AxeBuilder({ page }).withRules(["label-content-name-mismatch"]).exclude("[data-sonner-toaster]").analyze();
  const bad = [...tagged.violations, ...labelInName.violations].filter((v) => v.impact === "serious" || v.impact === "critical");
  const described = bad.map((v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.map((n) => n.target.join(" ")).join("\n    ")}`);
  expect(described, `accessibility of ${what}`).toEqual([]);
}
