import { layerSource } from "@/worker/runtime/layer-source";
import { runFlow } from "@/lib/engine/run-flow";
import { writeResultCopy, writeResultFile } from "@/lib/runs/result-blobs";
import { CITIES_IN_AREA } from "@/lib/demo/flows";
import type { TFlowVersion } from "@/lib/flows/definition";
const BOX = { w: 8, s: 47, e: 9, n: 48 };
const area = { type: "Polygon", coordinates: [[[BOX.w, BOX.s], [BOX.e, BOX.s], [BOX.e, BOX.n], [BOX.w, BOX.n], [BOX.w, BOX.s]]] };
const ref = (key: string) => ({ id: key, fileKey: key, kind: "features" as const, itemCount: 1, bbox: [-180, -90, 180, 90], columns: ["geonameid", "name", "country", "population"] });
const key = process.env.KEY ?? "prof/points-10m.parquet";
const out: string[] = [];
for (let i = 0; i < Number(process.env.N ?? 12); i++) {
  const signal = new AbortController().signal;
  const t0 = performance.now();
  const results = await runFlow(CITIES_IN_AREA as unknown as TFlowVersion, { cities: layerSource(ref(key)), area: { kind: "area", geometry: area } as never }, { min_population: 0 }, { signal });
  const t1 = performance.now();
  const budget = { bytesLeft: 1e12, limit: 1e12 };
  await Promise.all(results.flatMap((r) => [writeResultFile(`s${i}`, r, r.kind === "layer" ? "geojson" : "csv", budget, signal), writeResultCopy(`s${i}`, r, signal)]));
  const t2 = performance.now();
  out.push(`${(t1 - t0).toFixed(0)}+${(t2 - t1).toFixed(0)}`);
  console.error(`--- run ${i} done`);
  await new Promise((r) => setTimeout(r, 50));
}
console.log(out.join("  "));
