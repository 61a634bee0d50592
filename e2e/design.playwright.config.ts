/**
 * Playwright configuration of the design tool's browser tests (issue 10), runnable on its
 * own against a running app until the shared configuration (playwright.config.ts, the
 * sign-in setup project and `npm test` integration) lands:
 *
 *   E2E_BASE_URL=http://127.0.0.1:3106 E2E_DATABASE_URL=postgres://... E2E_API_KEY=fapi_... \
 *   E2E_DESIGNER_EMAIL=designer@demo.local E2E_DESIGNER_PASSWORD=... \
 *   npx playwright test -c e2e/design.playwright.config.ts
 *
 * Debian's Chromium (/usr/bin/chromium), headless, no network beyond the app.
 */
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: ".",
  testMatch: /design-.*\.spec\.ts/,
  timeout: 240_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [["list"]],
  outputDir: "../test-results/design",
  use: {
    baseURL: process.env.E2E_BASE_URL ?? "http://127.0.0.1:3106",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    },
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
    actionTimeout: 30_000,
    navigationTimeout: 120_000,
    trace: "retain-on-failure",
  },
});
