/**
 * Long-lived Node processes of the app (the worker, its run processes) started from one
 * bundled JavaScript file instead of through the tsx loader.
 *
 * Why: tsx compiles each module on a loader thread of its own, keeps a source map per module
 * and may leave an esbuild service process behind; a bundle needs none of that and holds only
 * the parts of its libraries the entry reaches. Measured on idle processes: a run process 131 MB
 * resident through tsx, 59 MB bundled; the worker 155 MB through tsx, 139 MB bundled.
 *
 * How: esbuild (a dependency of its own, the same version tsx compiles with) bundles the entry
 * and everything it imports, with the `react-server` condition (so `server-only` is empty) and
 * the project's `tsconfig.json` paths, into one ES module, in a short-lived process of its own
 * (lib/runs/bundle-builder.mjs: esbuild runs plugins only asynchronously). Each project module
 * keeps its own `import.meta.url` / `dirname` / `filename` (the source file's, not the
 * bundle's), so code that finds files next to itself works bundled too. The bundle is written to
 * `<os tmpdir>/flow-api-bundles/<name>-<sha256 of its text>.mjs`: the same code gives the same
 * file, so restarts do not pile up copies.
 *
 * Bundling takes about 0.5-1 s. Should it fail (esbuild's native binary missing on this
 * platform), the entry starts through tsx as before, with a log line.
 *
 * Result: `{ script, execArgv }` to start with `node` (`fork`/`spawn`); callers add their own
 * memory flags.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export interface TNodeEntry {
  script: string;
  execArgv: string[];
}

const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");
const BUILDER = path.join(import.meta.dirname, "bundle-builder.mjs");

/** Node flags that start a TypeScript entry of this project through tsx (the fallback). */
const TSX_EXEC_ARGV: readonly string[] = ["--conditions=react-server", "--import", "tsx"];

const built = new Map<string, TNodeEntry>();

/**
 * The bundled script of `source` (an absolute path to a `.ts` entry of this project), built on
 * the first call per process (and again should its file have been removed); `{ script: source, execArgv: TSX_EXEC_ARGV }` when bundling fails.
 * @param name a short name for the bundle's file (`worker`, `run-process`).
 */
export function bundleEntry(source: string, name: string): TNodeEntry {
  const cached = built.get(source);
  // A bundle unused for a week is removed by the builder (bundle-builder.mjs): a process
  // that has run that long builds it again.
  if (cached && (cached.execArgv.length > 0 || fs.existsSync(cached.script))) return cached;
  let entry: TNodeEntry;
  try {
    entry = { script: writeBundle(source, name), execArgv: [] };
  } catch (err) {
    console.error(`[bundle] bundling ${path.relative(PROJECT_ROOT, source)} failed (${(err as Error).message}); starting it through tsx`);
    entry = { script: source, execArgv: [...TSX_EXEC_ARGV] };
  }
  built.set(source, entry);
  return entry;
}

function writeBundle(source: string, name: string): string {
  const r = spawnSync(process.execPath, [BUILDER, source, name, PROJECT_ROOT], { encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0) throw new Error(r.error?.message ?? (r.stderr.trim() || `the bundle builder exited with ${r.status ?? r.signal}`));
  return r.stdout.trim();
}
