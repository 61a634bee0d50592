import { readFile } from "node:fs/promises";
import path from "node:path";

/**
 * MapLibre's worker script, served from the installed package so the map works under
 * Turbopack (which does not bundle the worker) without copying files into public/ or loading
 * anything from a CDN. Only the one file is served.
 */
const FILES: Record<string, string> = { "maplibre-gl-worker.mjs": "node_modules/maplibre-gl/dist/maplibre-gl-worker.mjs" };

// GET /maplibre/{file} - MapLibre's web worker script
export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }) {
  const rel = FILES[(await ctx.params).file];
  if (!rel) return new Response("Not found", { status: 404 });
  const body = await readFile(path.join(process.cwd(), rel));
  return new Response(new Uint8Array(body), { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" } });
}
