// Lint: typescript-eslint's recommended rules, the layer order of docs/architecture
// (CODE_STYLE.md "Layers") by folder, no import cycles, and no production import of a
// devDependency. Formatting is Prettier's job (eslint-config-prettier turns off the rules
// that would fight it).
import fs from "node:fs";
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import prettier from "eslint-config-prettier";

/**
 * The layers of lib/, lowest first, by entry of lib/ (a folder, or one of the few top-level
 * files). Every entry of lib/ must be in exactly one layer: a new folder is placed on purpose,
 * never let through by default.
 */
const LAYERS = {
  /** Database access (with the generated Prisma client), the blob store, environment, errors, own processes, outbound requests. */
  ground: ["db.ts", "env.ts", "errors", "database", "generated", "blobs", "processes", "net"],
  /** Pure computation: no I/O, no domain. */
  pure: ["steps", "engine", "expressions", "formats", "geo", "utils.ts"],
  /** The domain: flows, runs, keys, metering, layers, jobs ... free of any front door. */
  domain: [
    "runs",
    "flows",
    "apis",
    "keys",
    "metering",
    "layers",
    "jobs",
    "rate-limit",
    "demo",
    "users",
    "serving",
    "consumers",
    "grants",
    "webhooks",
    "health.ts",
  ],
  /** The front doors' edges. */
  doors: ["http", "mcp", "auth", "openapi", "ogc", "oauth"],
};
/** Processes and operations, above every layer of lib/. */
const APP = ["app", "features", "components", "worker", "scripts", "bench"];

const placed = Object.values(LAYERS).flat();
const unplaced = fs
  .readdirSync(new URL("./lib", import.meta.url))
  .filter((e) => !/\.test\.tsx?$/.test(e))
  .filter((e) => !placed.includes(e));
if (unplaced.length > 0) throw new Error(`eslint.config.mjs: put ${unplaced.map((e) => `lib/${e}`).join(", ")} in a layer (LAYERS)`);

const lib = (entries) => entries.map((e) => `./lib/${e}`);
const zone = (target, from, message) => ({ target, from, message });
const ground = lib(LAYERS.ground);
const pure = lib(LAYERS.pure);
const domain = lib(LAYERS.domain);
const doors = lib(LAYERS.doors);
const app = APP.map((a) => `./${a}`);

/** Where a devDependency may be imported: tests and their helpers, browser tests, the bench, configs, dev-only tools. */
const DEV_FILES = [
  "**/*.test.ts",
  "**/test-*.ts",
  "**/*-test-*.ts",
  "**/test-fixtures/**",
  "lib/steps/*/fixtures.ts",
  "tests/**",
  "e2e/**",
  "bench/**",
  "*.config.{ts,mjs}",
  "scripts/check-imports.ts",
];

export default tseslint.config(
  { ignores: ["node_modules/**", ".next/**", ".data/**", "lib/generated/**", "next-env.d.ts", "test-results/**", "playwright-report/**"] },
  ...tseslint.configs.recommended,
  {
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })] },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-extraneous-dependencies": ["error", { devDependencies: DEV_FILES, optionalDependencies: true, peerDependencies: false }],
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            zone(
              pure,
              [...domain, ...doors, ...ground.filter((g) => g !== "./lib/errors"), ...app],
              "Pure computation (steps, engine, expressions, formats, geo) imports no domain, I/O or front-door module.",
            ),
            zone(
              domain,
              [...doors, ...app],
              "The domain imports no front door (lib/http, lib/mcp, lib/auth, lib/openapi) and nothing from app/, features/, worker/ or scripts/.",
            ),
            zone(
              ground,
              [...domain, ...doors, ...pure, ...app],
              "Ground modules (db, env, errors, database, blobs, generated client) import nothing above them.",
            ),
            zone(doors, app, "Front-door edges import nothing from app/, features/, worker/ or scripts/."),
            // The worker's process pool and run processes: lib/ is given a runner (lib/runs/run-task.ts) instead.
            zone(
              ["lib"],
              ["worker/runtime"],
              "Nothing in lib/ imports the worker's runtime (worker/runtime); the domain is given a TRunner (lib/runs/run-task.ts).",
            ),
          ],
        },
      ],
    },
  },
  {
    // Tests, their helpers and step fixtures may reach across layers to set up and inspect what they test.
    files: ["**/*.test.ts", "**/test-helpers.ts", "**/test-fixtures.ts", "**/test-support.ts", "lib/steps/*/fixtures.ts", "tests/**", "e2e/**", "bench/**"],
    rules: { "import-x/no-restricted-paths": "off", "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
  prettier,
);
