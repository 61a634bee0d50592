import path from "node:path";
import { defineConfig } from "vitest/config";

// Two projects: fast unit tests beside the code, and integration tests that talk to the
// running app and a real Postgres (started by scripts/test.ts, see tests/integration/setup.ts).
export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Tests run server code outside a React server bundle; the marker has nothing to guard here.
      "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "features/**/*.test.ts", "components/**/*.test.ts", "worker/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
          // One test file per core: vitest's default keeps a core for its main process, which
          // only waits while the files run (each file still runs in a process of its own).
          maxWorkers: "100%",
          // Some unit tests check every Natural Earth country against Turf: seconds on a quiet
          // machine, many more on a loaded one. Speed is measured by npm run bench, not here.
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/integration/global-setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
