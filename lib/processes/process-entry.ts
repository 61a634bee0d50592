/**
 * How the app's own long-lived Node processes (the worker, its run processes, its import
 * processes) are started: from their bundles, built by `npm run build`
 * (scripts/build-processes.ts) into `.next/processes/<name>.mjs`, with plain `node`; or from
 * their TypeScript sources through tsx (`npm run dev`, tests, `npm run worker`).
 *
 * Why bundles: a process started from one holds only the parts of its libraries it reaches,
 * with no loader thread, compiled-module cache or source maps. Measured on a run process that
 * answered one small run (2 cores, busy machine, 6 starts each): through tsx 131-136 MB resident
 * (89-94 MB anonymous) and 3.2-5.5 s to its first answer; bundled 66 MB (30 MB anonymous) and
 * 0.4-1.2 s. Each run process of the pool saves that (bench row "worker resident memory through
 * the engine section"); bundling takes about 2 s, once per build instead of at every start.
 *
 * A process started from a bundle, or with `NODE_ENV=production` (`npm run worker` on a
 * server), starts its children from their bundles (built together, so never out of step with
 * it); any other (development, tests) starts them from their sources through tsx. A bundle
 * that is missing (only `next build` was run) falls back to tsx, with a log line.
 */
import fs from "node:fs";
import path from "node:path";

interface TNodeEntry {
  script: string;
  execArgv: string[];
}

/** `.next/processes` (not lib/database/bootstrap.ts's PROJECT_ROOT: that module would bring the embedded database into every bundle). */
export const BUNDLE_DIR = path.resolve(import.meta.dirname, "../../.next/processes");

/** Node flags that start a TypeScript entry of this project through tsx. */
const TSX_EXEC_ARGV: readonly string[] = ["--conditions=react-server", "--import", "tsx"];

/** True in a process that was itself started from a bundle of BUNDLE_DIR, or in production. */
function bundledHere(): boolean {
  return (!!process.argv[1] && path.dirname(process.argv[1]) === BUNDLE_DIR) || process.env.NODE_ENV === "production";
}

/**
 * The script and Node flags to start `source` (an absolute path to a `.ts` entry) with: the
 * bundle `<BUNDLE_DIR>/<name>.mjs` when `bundled` (by default: when this process runs from a
 * bundle too, or in production) and it exists, else the source through tsx. Callers add their
 * own memory flags.
 */
export function processEntry(source: string, name: string, bundled: boolean = bundledHere()): TNodeEntry {
  const script = path.join(BUNDLE_DIR, `${name}.mjs`);
  if (bundled && fs.existsSync(script)) return { script, execArgv: [] };
  if (bundled) console.error(`[processes] ${path.relative(process.cwd(), script)} is missing (npm run build makes it): starting ${name} through tsx`);
  return { script: source, execArgv: [...TSX_EXEC_ARGV] };
}
