// Generates the Prisma client offline (npm postinstall). `prisma generate` only needs the
// bundled WebAssembly, but the CLI insists on a schema-engine path; any existing file
// satisfies the check (see design.md, "Facts about these machines").
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(root, "package.json");
env.PRISMA_HIDE_UPDATE_MESSAGE = "1";
const result = spawnSync(path.join(root, "node_modules/.bin/prisma"), ["generate"], {
  cwd: root,
  env,
  stdio: "inherit",
});
process.exit(result.status ?? 1);
