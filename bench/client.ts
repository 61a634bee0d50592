/**
 * Bench section "client": the JavaScript a browser downloads for the design tool, from the
 * production build (bench/index.ts builds it first).
 *
 * Measured from Next's client reference manifests (`.next/server/app/design/**
 * /page_client-reference-manifest.js`): each names the `static/chunks/*.js` files its page's
 * client components need. A row is the sum of those files' sizes on disk (minified, not
 * compressed): per page for the flow page (the canvas, the heaviest), and for all design pages
 * together with each chunk counted once. Whether the step runners and Turf reach the browser
 * shows here (issue "Simpler code": definitions apart from runners).
 */
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "@/lib/database/bootstrap";
import type { TBenchContext, TBenchRow } from "./harness";

const NEXT_DIR = path.join(PROJECT_ROOT, ".next");
const DESIGN_DIR = path.join(NEXT_DIR, "server/app/design");

/** The manifests of every design page, by route (relative to /design). */
function manifests(dir = DESIGN_DIR): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return manifests(p);
    return e.name.endsWith("page_client-reference-manifest.js") ? [p] : [];
  });
}

/** The chunk files a manifest names. */
function chunksOf(manifest: string): Set<string> {
  const text = fs.readFileSync(manifest, "utf8");
  return new Set([...text.matchAll(/static\/chunks\/[A-Za-z0-9_.~-]+\.js/g)].map((m) => m[0]));
}

const kib = (files: Iterable<string>) => [...files].reduce((sum, f) => sum + fs.statSync(path.join(NEXT_DIR, f)).size, 0) / 1024;

export async function bench(ctx: TBenchContext): Promise<TBenchRow[]> {
  ctx.log("client: design tool JavaScript from the build's manifests...");
  const all = new Set<string>();
  let flowPage = 0;
  for (const m of manifests()) {
    const chunks = chunksOf(m);
    for (const c of chunks) all.add(c);
    if (path.relative(DESIGN_DIR, m).includes("[flowId]")) flowPage = kib(chunks);
  }
  return [
    {
      group: "client",
      metric: "design tool JavaScript, flow page (chunks its client components need, minified)",
      value: Math.round(flowPage),
      unit: "KiB",
      note: "the canvas, the JSON editor, Try it and the preview panel",
    },
    {
      group: "client",
      metric: "design tool JavaScript, all design pages (each chunk once)",
      value: Math.round(kib(all)),
      unit: "KiB",
      note: `${all.size} chunks`,
    },
  ];
}
