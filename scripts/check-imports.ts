// npm run lint:imports - no import cycles between files, nor between the folders of lib/
// (a folder cycle such as lib/flows <-> lib/engine is a layering bug even when no two
// files import each other). Static, type-only and dynamic imports all count. Uses madge's
// dependency graph; the layer order itself is held by ESLint (eslint.config.mjs).
import madge from "madge";

const ROOTS = ["lib", "app", "worker", "scripts"];

/** Folder of a file for the folder graph: `lib/<name>` (a top-level lib file is its own unit). */
function unitOf(file: string): string | null {
  const m = /^lib\/([^/]+)(\/|$)/.exec(file);
  if (!m) return null;
  return m[2] === "/" ? `lib/${m[1]}` : file;
}

/** Strongly connected components with more than one node (Tarjan). */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

const result = await madge(ROOTS, {
  fileExtensions: ["ts", "tsx"],
  tsConfig: "tsconfig.json",
  // Tests, their helpers and step fixtures may reach across layers to set up what they test.
  excludeRegExp: [/lib\/generated\//, /node_modules/, /\.test\.tsx?$/, /test-(helpers|fixtures|support)\.ts$/, /lib\/steps\/[^/]+\/fixtures\.ts$/],
  detectiveOptions: { ts: { skipTypeImports: false, skipAsyncImports: false }, tsx: { skipTypeImports: false, skipAsyncImports: false } },
});
const files = result.obj();
const fileCycles = result.circular();
const folders = new Map<string, Set<string>>();
for (const [file, deps] of Object.entries(files)) {
  const from = unitOf(file);
  if (!from) continue;
  for (const dep of deps) {
    const to = unitOf(dep);
    if (!to || to === from) continue;
    if (!folders.has(from)) folders.set(from, new Set());
    folders.get(from)!.add(to);
  }
}
const folderCycles = cycles(folders);
for (const c of fileCycles) console.error(`file cycle: ${c.join(" -> ")}`);
for (const c of folderCycles) {
  const edges = c.flatMap((a) => [...(folders.get(a) ?? [])].filter((b) => c.includes(b)).map((b) => `${a} -> ${b}`));
  console.error(`folder cycle: ${c.join(", ")} (${edges.join("; ")})`);
}
console.log(`[imports] ${Object.keys(files).length} files: ${fileCycles.length} file cycles, ${folderCycles.length} folder cycles`);
process.exit(fileCycles.length + folderCycles.length > 0 ? 1 : 0);
