/**
 * Probe for lib/layers/layer-data.test.ts, run as its own process (glibc's heap is per process):
 * decodes a ~20 MB layer and prints JSON `{ before, after }`, the resident KiB of the C
 * library's main heap (`[heap]` in /proc/self/smaps) before and after, or nulls where there is
 * no such mapping (another C library or OS).
 */
import fs from "node:fs";
import { decodeLayerData, encodeLayerData } from "@/lib/layers/layer-data";

function mainHeapKb(): number | null {
  const smaps = fs.readFileSync("/proc/self/smaps", "utf8");
  const at = smaps.indexOf("[heap]");
  if (at < 0) return null;
  const m = /Rss:\s+(\d+) kB/.exec(smaps.slice(at));
  return m ? Number(m[1]) : null;
}

const features = Array.from({ length: 120_000 }, (_, i) => ({
  type: "Feature" as const,
  geometry: { type: "Point" as const, coordinates: [((i * 7) % 360) - 180, ((i * 3) % 180) - 90] },
  properties: { geonameid: 3_000_000 + i, name: `A place called number ${i}`, country: "FR", population: 1000 + i },
}));
const content = encodeLayerData({ kind: "features", features });
const before = mainHeapKb();
const decoded = decodeLayerData("features", content);
const after = mainHeapKb();
process.stdout.write(JSON.stringify({ before, after, count: decoded.kind === "features" ? decoded.features.length : 0 }));
