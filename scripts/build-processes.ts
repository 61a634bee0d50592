/**
 * `npm run build` (after `next build`): bundles the entries of the app's own Node processes into
 * `.next/processes/<name>.mjs` (lib/processes/process-entry.ts starts them from there) with
 * esbuild: each entry and everything it imports, the `react-server` condition (so `server-only`
 * is empty) and the project's `tsconfig.json` paths, as one ES module.
 *
 * Each project module keeps its own `import.meta.url` / `dirname` / `filename` (the source
 * file's, not the bundle's), so code that finds files next to itself works bundled too: the
 * plugin gives every module that mentions `import.meta` three constants, and `define` turns
 * `import.meta.url` (etc.) into them; esbuild renames each module's top-level names apart, so
 * every module sees its own.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { BUNDLE_DIR } from "@/lib/processes/process-entry";

const ROOT = path.resolve(import.meta.dirname, "..");

/** The app's processes by bundle name. */
const PROCESS_ENTRIES: Record<string, string> = {
  worker: path.join(ROOT, "worker/index.ts"),
  "run-process": path.join(ROOT, "worker/runtime/run-process.ts"),
  "import-process": path.join(ROOT, "lib/layers/import-process.ts"),
};

const sourceImportMeta: esbuild.Plugin = {
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

/** Bundles `entries` (name → absolute `.ts` path) into `<outdir>/<name>.mjs`. */
export async function buildProcessBundles(entries: Record<string, string> = PROCESS_ENTRIES, outdir: string = BUNDLE_DIR): Promise<void> {
  await esbuild.build({
    entryPoints: entries,
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: `node${process.versions.node.split(".")[0]}`,
    conditions: ["react-server"],
    tsconfig: path.join(ROOT, "tsconfig.json"),
    // CommonJS packages inside an ES module bundle still call require().
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    define: { "import.meta.url": "__sourceUrl", "import.meta.dirname": "__sourceDirname", "import.meta.filename": "__sourceFilename" },
    plugins: [sourceImportMeta],
    logLevel: "warning",
  });
}

if (process.argv[1] === import.meta.filename) {
  const t0 = performance.now();
  await buildProcessBundles();
  console.log(
    `[build] process bundles in ${path.relative(ROOT, BUNDLE_DIR)} (${Object.keys(PROCESS_ENTRIES).join(", ")}) in ${(performance.now() - t0).toFixed(0)} ms`,
  );
}
