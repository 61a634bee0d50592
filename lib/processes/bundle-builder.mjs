/**
 * Builds one bundle for lib/processes/bundle-entry.ts, in a process of its own because esbuild
 * runs plugins only in its asynchronous API and bundle-entry.ts must answer synchronously.
 *
 * Usage: `node bundle-builder.mjs <entry .ts> <name> <project root> <bundle dir>`. Writes
 * `<bundle dir>/<name>-<sha256 of the text, 16 hex>.mjs` (unless that file is there already,
 * a regular file of this user that group and others cannot write: same code, same file; any
 * other file there is replaced) and prints its path; exits non-zero with esbuild's message on
 * failure. `<bundle dir>` is the private directory bundle-entry.ts made (mode 0700, ours); new
 * files get mode 0600. Bundles of the same name that no start has used for 7 days are removed
 * (each code change makes a new one, 2-9 MB).
 *
 * Each project module keeps its own `import.meta.url` / `dirname` / `filename` (the source
 * file's, not the bundle's): the plugin gives every module that mentions `import.meta` three
 * constants, and `define` turns `import.meta.url` (etc.) into them; esbuild renames each
 * module's top-level names apart, so every module sees its own.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [source, name, root, dir] = process.argv.slice(2);
const esbuild = createRequire(path.join(root, "package.json"))("esbuild");

/** @type {import("esbuild").Plugin} */
const sourceImportMeta = {
  name: "source-import-meta",
  setup(build) {
    build.onLoad({ filter: /\.(ts|tsx|mts|js|mjs)$/ }, (args) => {
      const text = fs.readFileSync(args.path, "utf8");
      if (!text.includes("import.meta")) return undefined;
      const constants = `const __sourceUrl = ${JSON.stringify(pathToFileURL(args.path).href)}, __sourceDirname = ${JSON.stringify(path.dirname(args.path))}, __sourceFilename = ${JSON.stringify(args.path)};\n`;
      const ext = path.extname(args.path).slice(1);
      return { contents: constants + text, loader: ext === "ts" || ext === "tsx" ? ext : ext === "mts" ? "ts" : "js" };
    });
  },
};

/** Bundles no process has started from for `STALE_MS` (older code); a running worker's stay. */
const STALE_MS = 7 * 24 * 3600 * 1000;

function removeStale(dir, name, keep) {
  for (const f of fs.readdirSync(dir)) {
    const file = path.join(dir, f);
    if (file === keep || !f.startsWith(`${name}-`)) continue;
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > STALE_MS) fs.unlinkSync(file);
    } catch {
      // removed by another builder meanwhile
    }
  }
}

/** An existing bundle is reused only when it is a regular file of ours that group and others cannot write. */
function reusable(file) {
  let stat;
  try {
    stat = fs.lstatSync(file);
  } catch {
    return false;
  }
  return stat.isFile() && stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
}

try {
  const result = await esbuild.build({
    entryPoints: [source],
    outfile: path.join(dir, `${name}.mjs`), // names the output only: nothing is written
    write: false,
    bundle: true,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    conditions: ["react-server"],
    tsconfig: path.join(root, "tsconfig.json"),
    // CommonJS packages inside an ES module bundle still call require().
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    define: { "import.meta.url": "__sourceUrl", "import.meta.dirname": "__sourceDirname", "import.meta.filename": "__sourceFilename" },
    plugins: [sourceImportMeta],
    logLevel: "silent",
  });
  const text = result.outputFiles[0].contents;
  const script = path.join(dir, `${name}-${createHash("sha256").update(text).digest("hex").slice(0, 16)}.mjs`);
  if (!reusable(script)) {
    // two builders at once both end with a complete file; "wx": never through a planted link
    const partial = `${script}.${process.pid}.tmp`;
    fs.rmSync(partial, { force: true });
    fs.writeFileSync(partial, text, { flag: "wx", mode: 0o600 });
    fs.renameSync(partial, script);
  } else {
    const now = new Date();
    fs.utimesSync(script, now, now); // in use again: not stale
  }
  removeStale(dir, name, script);
  process.stdout.write(script);
} catch (err) {
  process.stderr.write(err instanceof Error ? err.message : String(err));
  process.exitCode = 1;
}
