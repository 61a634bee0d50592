/**
 * What the browser tests know about their surroundings: the app's address, the demo users'
 * credentials (forced by scripts/test.ts for the test database), where each role's
 * signed-in storage state is kept, and how Chromium is started.
 */
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
/** The flags HELPERS.md gives for Chromium here (Playwright adds --headless itself). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the browser tests through npm test (scripts/test.ts sets it).`);
  return v;
}

export type TRole = "designer" | "admin";

export const USERS: Record<TRole, { email: string; password: string }> = {
  get designer() {
    return { email: required("DEMO_DESIGNER_EMAIL"), password: required("DEMO_DESIGNER_PASSWORD") };
  },
  get admin() {
    return { email: required("DEMO_ADMIN_EMAIL"), password: required("DEMO_ADMIN_PASSWORD") };
  },
};

export const STORAGE: Record<TRole, string> = {
  designer: path.join(ROOT, ".data/e2e-auth/designer.json"),
  admin: path.join(ROOT, ".data/e2e-auth/admin.json"),
};

/** The demo organization's places (lib/demo/seed.ts). */
export const DEMO = { organization: "demo", workspace: "demo", environment: "production" };

/** A small box over Zürich (WGS 84 lon/lat): an `area` input that holds a few demo cities. */
export const ZURICH = {
  type: "Polygon",
  coordinates: [
    [
      [8.4, 47.3],
      [8.65, 47.3],
      [8.65, 47.45],
      [8.4, 47.45],
      [8.4, 47.3],
    ],
  ],
};
