/**
 * The script and Node flags a run process (lib/runs/run-process.ts) is started with.
 *
 * The entry is bundled once per worker process with esbuild (a dependency of its own, the same
 * version tsx compiles with) into one plain JavaScript file in the OS temp directory, and started with plain
 * `node`: no tsx loader, no esbuild worker thread and service process, and only the parts of
 * its libraries the engine and writers use. Measured on an idle process (no layer loaded):
 * 131 MB resident through tsx, 59 MB bundled; each run process of the pool saves that.
 * Bundling takes about 0.3 s of CPU when the first process starts. Should it fail (esbuild's
 * native binary missing on this platform), the processes start through tsx as before, with a log line.
 *
 * Result: `{ script, execArgv }` for `child_process.fork`; the pool adds its memory flags.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SOURCE = fileURLToPath(new URL("./run-process.ts", import.meta.url));
const PROJECT_ROOT = path.resolve(path.dirname(SOURCE), "../..");

let entry: { script: string; execArgv: string[] } | undefined;

/** The run process's script and flags, bundling it on the first call. */
export function runProcessEntry(): { script: string; execArgv: string[] } {
  if (entry) return entry;
  try {
    // Loaded only here (the worker), so that nothing else pulls the compiler in.
    const esbuild = createRequire(import.meta.url)("esbuild") as typeof import("esbuild");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "flow-run-process-"));
    const script = path.join(dir, "run-process.mjs");
    esbuild.buildSync({
      entryPoints: [SOURCE],
      outfile: script,
      bundle: true,
      platform: "node",
      format: "esm",
      target: `node${process.versions.node.split(".")[0]}`,
      conditions: ["react-server"],
      tsconfig: path.join(PROJECT_ROOT, "tsconfig.json"),
      // CommonJS packages inside an ES module bundle still call require().
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      logLevel: "warning",
    });
    // The compiler's service process stays up after a build (measured 100 MB resident, counted
    // as the worker's); tsx starts its own again should it need one.
    void esbuild.stop();
    entry = { script, execArgv: [] };
  } catch (err) {
    console.error(`[run-pool] bundling the run process failed (${(err as Error).message}); starting it through tsx`);
    entry = { script: SOURCE, execArgv: ["--conditions=react-server", "--import", "tsx"] };
  }
  return entry;
}
