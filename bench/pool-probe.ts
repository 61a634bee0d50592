/**
 * Probe (not part of `npm run bench`): nearby-cities 5,000 rows at 30 km in one run process of
 * the pool, with the heap limit given as the first argument (MB), timing the run and its first
 * file and sampling the process's resident memory. Shows what the process's heap limit costs:
 * `npx tsx --conditions=react-server bench/pool-probe.ts 256`.
 */
import fs from "node:fs";
import { loadWorldCities } from "@/lib/demo/real-data";
import { NEARBY_CITIES } from "@/lib/demo/flows";
import { validateFlowVersion } from "@/lib/flows/definition";
import { applyParameterDefaults } from "@/lib/flows/run-request";
import { encodeLayerData } from "@/lib/layers/layer-data";
import { RunPool } from "@/lib/runs/run-pool";
import { benchPlaces } from "./engine";

const memoryMb = Number(process.argv[2] ?? 256);
const r = validateFlowVersion(NEARBY_CITIES);
if (!r.ok) throw new Error("flow");
const flow = r.flow;
const cities = loadWorldCities();
const content = encodeLayerData(cities);
const places = benchPlaces(cities.features);
const pool = new RunPool({ size: 1, memoryMb, timeLimitMs: 120_000 });
const proc = await pool.acquire();
let peak = 0;
const childPid = () => Number(fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, "utf8").trim().split(/\s+/)[0]);
const timer = setInterval(() => {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${childPid()}/status`, "utf8"));
    peak = Math.max(peak, Number(m![1]) / 1024);
  } catch {}
}, 50);
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  const sizes: number[] = [];
  await proc.run({
    flow,
    inputs: { places: { value: { rows: places } }, cities: { layer: { id: "c", version: 1 } } },
    layers: [{ id: "c", version: 1, kind: "features" }],
    loadLayer: async () => content,
    params: applyParameterDefaults(flow, { radius_km: 30 }),
    files: flow.results.map((x) => ({ key: x.key, format: x.kind === "layer" ? "geojson" : "csv" })),
    maxResultBytes: 200 * 1024 * 1024,
    maxRows: 1_000_000,
    onChunk: () => {},
    onFile: (f) => sizes.push(f.sizeBytes),
  });
  console.log(
    `heap ${memoryMb} MB run ${i}: ${(performance.now() - t0).toFixed(0)} ms, files ${sizes.map((s) => (s / 1e6).toFixed(1)).join("+")} MB, peak RSS ${peak.toFixed(0)} MB`,
  );
}
clearInterval(timer);
await pool.close();
