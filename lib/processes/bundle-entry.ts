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
 * (lib/processes/bundle-builder.mjs: esbuild runs plugins only asynchronously). Each project module
 * keeps its own `import.meta.url` / `dirname` / `filename` (the source file's, not the
 * bundle's), so code that finds files next to itself works bundled too. The bundle is written to
 * `<project>/.data/bundles/<name>-<sha256 of its text>.mjs` (`.data` is DATA_DIR of
 * lib/database/bootstrap.ts): the same code gives the same file, so restarts do not pile up copies.
 *
 * Security: the worker executes these files, as whichever user runs it (often root). So they live
 * in a directory of our own, not a shared one (a shared temp folder let user `nobody` replace a
 * bundle that root then ran): `.data/bundles` is created with mode 0700, and before each use the
 * directory must be ours, not a symbolic link, and closed to group and others, else it is
 * removed and made afresh; its parent must not be writable by others. A bundle file is started
 * only when it is a regular file we own that group and others cannot write (checked here before
 * it is handed out, and by the builder before it reuses one).
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

/**
 * Where bundles are built: `.data/bundles` of the project (DATA_DIR of lib/database/bootstrap.ts,
 * not imported: that module would bring the embedded database's code into every bundle).
 */
export const BUNDLE_DIR = path.join(PROJECT_ROOT, ".data", "bundles");

/** Node flags that start a TypeScript entry of this project through tsx (the fallback). */
const TSX_EXEC_ARGV: readonly string[] = ["--conditions=react-server", "--import", "tsx"];

const built = new Map<string, TNodeEntry>();

/**
 * Why a directory or file (its `lstat`) may not be trusted with code we execute, or null when
 * it may: it must be a real directory or regular file (a symbolic link is neither) owned by this
 * process's user; a directory closed to group and others (mode 0700), a file not writable by them.
 */
export function untrusted(stat: fs.Stats, kind: "directory" | "file"): string | null {
  if (kind === "directory" ? !stat.isDirectory() : !stat.isFile()) return `not a ${kind}`;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return `owned by uid ${stat.uid}, not by this process's uid ${uid}`;
  const mode = (stat.mode & 0o777).toString(8).padStart(3, "0");
  if (kind === "directory" && (stat.mode & 0o077) !== 0) return `open to group or others (mode ${mode}, not 700)`;
  if (kind === "file" && (stat.mode & 0o022) !== 0) return `writable by group or others (mode ${mode})`;
  return null;
}

function lstatOrNull(p: string): fs.Stats | null {
  try {
    return fs.lstatSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * Makes `dir` a private directory of ours (see the module doc): kept when it already is one,
 * otherwise removed with everything in it and created again with mode 0700.
 * @throws when its parent is writable by others (anyone could swap `dir` itself) or `dir` cannot be made private.
 */
export function ensurePrivateDir(dir: string): void {
  const parent = path.dirname(dir);
  fs.mkdirSync(parent, { recursive: true });
  const p = fs.lstatSync(parent);
  const uid = process.getuid?.();
  const sticky = (p.mode & 0o1000) !== 0;
  if (!p.isDirectory() || (uid !== undefined && p.uid !== uid && p.uid !== 0) || ((p.mode & 0o022) !== 0 && !sticky)) {
    throw new Error(`${parent} is not a directory owned by this user or root and closed to writes by others`);
  }
  const stat = lstatOrNull(dir);
  const why = stat && untrusted(stat, "directory");
  if (stat && !why) return;
  if (why) {
    console.error(`[bundle] ${dir} is ${why}: not reusing it; building the bundles afresh`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
  // Not recursive, so that a directory someone made meanwhile fails here instead of being used.
  fs.mkdirSync(dir, { mode: 0o700 });
  const made = untrusted(fs.lstatSync(dir), "directory");
  if (made) throw new Error(`${dir} is ${made} right after it was made`);
}

/**
 * The bundled script of `source` (an absolute path to a `.ts` entry of this project), built on
 * the first call per process (and again should its file have been removed or no longer be
 * trusted); `{ script: source, execArgv: TSX_EXEC_ARGV }` when bundling fails.
 * @param name a short name for the bundle's file (`worker`, `run-process`).
 * @param dir where bundles are built: `BUNDLE_DIR` (tests give a directory of their own).
 */
export function bundleEntry(source: string, name: string, dir: string = BUNDLE_DIR): TNodeEntry {
  const key = `${dir}\0${source}`;
  const cached = built.get(key);
  // A bundle unused for a week is removed by the builder (bundle-builder.mjs): a process
  // that has run that long builds it again.
  if (cached && (cached.execArgv.length > 0 || trustedScript(cached.script, dir))) return cached;
  let entry: TNodeEntry;
  try {
    entry = { script: writeBundle(source, name, dir), execArgv: [] };
  } catch (err) {
    console.error(`[bundle] bundling ${path.relative(PROJECT_ROOT, source)} failed (${(err as Error).message}); starting it through tsx`);
    entry = { script: source, execArgv: [...TSX_EXEC_ARGV] };
  }
  built.set(key, entry);
  return entry;
}

/** True when `script` is a file of `dir` that may be executed (see `untrusted`), `dir` included. */
function trustedScript(script: string, dir: string): boolean {
  const dirStat = lstatOrNull(dir);
  const fileStat = lstatOrNull(script);
  return path.dirname(script) === dir && !!dirStat && !untrusted(dirStat, "directory") && !!fileStat && !untrusted(fileStat, "file");
}

function writeBundle(source: string, name: string, dir: string): string {
  ensurePrivateDir(dir);
  const r = spawnSync(process.execPath, [BUILDER, source, name, PROJECT_ROOT, dir], { encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0) throw new Error(r.error?.message ?? (r.stderr.trim() || `the bundle builder exited with ${r.status ?? r.signal}`));
  const script = r.stdout.trim();
  if (!trustedScript(script, dir)) throw new Error(`the bundle ${script} is not a private file of ${dir}; not executing it`);
  return script;
}
