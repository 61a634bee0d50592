// Lint: typescript-eslint's recommended rules, the layer order of docs/architecture
// (CODE_STYLE.md "Layers"), and no import cycles. Formatting is Prettier's job
// (eslint-config-prettier turns off the rules that would fight it).
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import prettier from "eslint-config-prettier";

/** Pure computation: no I/O, no domain. */
const PURE = ["lib/steps", "lib/engine", "lib/expressions", "lib/formats", "lib/geo"];
/** The domain: flows, runs, keys, metering, layers, jobs ... free of any front door. */
const DOMAIN = [
  "lib/runs",
  "lib/flows",
  "lib/apis",
  "lib/keys",
  "lib/metering",
  "lib/layers",
  "lib/jobs",
  "lib/rate-limit",
  "lib/demo",
  "lib/users",
  "lib/serving",
  "lib/consumers",
  "lib/grants",
  "lib/health.ts",
];
/** The front doors' edges. */
const DOORS = ["lib/http", "lib/mcp", "lib/auth", "lib/openapi"];
/** Ground: database access, the blob store, environment, errors. */
const GROUND = [
  "lib/db.ts",
  "lib/env.ts",
  "lib/errors",
  "lib/blobs",
  /** Starting the app's own Node processes from private bundles. */
  "lib/processes",
  ...["embedded", "migrate", "pg-listener", "reset", "test-guard", "transaction", "unavailable"].map((f) => `lib/database/${f}.ts`),
];
/** Processes and operations (lib/database/bootstrap.ts prepares a database for them: migrations, queues). */
const APP = ["app", "features", "components", "worker", "scripts", "bench", "lib/database/bootstrap.ts"];

const zone = (target, from, message) => ({ target: target.map((t) => `./${t}`), from: from.map((f) => `./${f}`), message });

export default tseslint.config(
  { ignores: ["node_modules/**", ".next/**", ".data/**", "lib/generated/**", "next-env.d.ts", "test-results/**", "playwright-report/**"] },
  ...tseslint.configs.recommended,
  {
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })] },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            zone(
              PURE,
              [...DOMAIN, ...DOORS, ...GROUND.filter((g) => g !== "lib/errors"), ...APP],
              "Pure computation (steps, engine, expressions, formats, geo) imports no domain, I/O or front-door module.",
            ),
            zone(
              DOMAIN,
              [...DOORS, ...APP],
              "The domain imports no front door (lib/http, lib/mcp, lib/auth, lib/openapi) and nothing from app/, features/, worker/ or scripts/.",
            ),
            zone(GROUND, [...DOMAIN, ...DOORS, ...PURE, ...APP], "Ground modules (db, env, errors, database) import nothing above them."),
            zone(DOORS, APP, "Front-door edges import nothing from app/, features/, worker/ or scripts/."),
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
