/**
 * Browser tests (e2e/) in Debian's Chromium, against the app `npm test` starts
 * (scripts/test.ts passes TEST_BASE_URL, DATABASE_URL and the demo users' credentials).
 * A setup project signs in once per role and saves the storage state in .data/e2e-auth/;
 * tests pick a role with `test.use({ storageState: STORAGE.admin })`.
 */
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/support/env";

export default defineConfig({
  testDir: "e2e",
  outputDir: ".data/e2e-results",
  fullyParallel: true,
  // One browser at a time: the app, its worker, their run processes and Postgres share two
  // cores with it. With two, the load stayed near 9 on a slower machine, and pages that pass
  // alone (consent, consumers, the canvas) timed out or met a full database pool.
  workers: 1,
  retries: 0,
  // Generous: the machines here are shared and often loaded far beyond their two cores.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  forbidOnly: true,
  reporter: [["list"], ["json", { outputFile: ".data/playwright-report.json" }]],
  use: {
    baseURL: process.env.TEST_BASE_URL ?? "http://127.0.0.1:3000",
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    viewport: { width: 1280, height: 800 },
    navigationTimeout: 60_000,
    actionTimeout: 30_000,
  },
  projects: [
    { name: "setup", testMatch: /.*\.setup\.ts/ },
    { name: "chromium", testMatch: /.*\.spec\.ts/, dependencies: ["setup"] },
  ],
});
