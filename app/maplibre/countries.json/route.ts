import { basemapCountriesJson } from "@/lib/demo/basemap";

/** Rendered once at build (the data only changes with the installed package). */
export const dynamic = "force-static";

// GET /maplibre/countries.json - the maps' basemap: Natural Earth 1:110m countries as GeoJSON
export async function GET() {
  return new Response(await basemapCountriesJson(), {
    headers: { "content-type": "application/geo+json; charset=utf-8", "cache-control": "public, max-age=86400" },
  });
}
