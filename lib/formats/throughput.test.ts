/**
 * Throughput check (prints only, asserts nothing about speed): 135,233 points with 4 properties
 * encoded as GeoJSON and GeoParquet. MB/s = output megabytes (10^6 bytes) per wall-clock second.
 */
import { parquetMetadata } from "hyparquet";
import { describe, expect, it } from "vitest";
import type { TFeature, TFeatureSet } from "@/lib/engine/types";
import { encodeResult } from "./encode-result";
import { DEFAULT_ROW_GROUP_ROWS } from "./parquet/write";
import { geoMetadata, toArrayBuffer } from "./test-support";

const COUNT = 135_233;

function pointLayer(): TFeatureSet {
  const features: TFeature[] = new Array(COUNT);
  for (let i = 0; i < COUNT; i++) {
    features[i] = {
      type: "Feature",
      geometry: { type: "Point", coordinates: [-180 + (i * 360) / COUNT, -85 + ((i * 7919) % 17000) / 100] },
      properties: { id: i, name: `city ${i}`, population: (i * 104729) % 10_000_000, capital: i % 97 === 0 },
    };
  }
  return { kind: "features", features };
}

describe("throughput (print only)", () => {
  it(`encodes ${COUNT.toLocaleString("en")} points as GeoJSON and GeoParquet`, { timeout: 120_000 }, async () => {
    const layer = pointLayer();
    for (const format of ["geojson", "geoparquet"] as const) {
      await encodeResult({ kind: "layer", data: { kind: "features", features: layer.features.slice(0, 2000) } }, format); // warm-up
      const started = performance.now();
      const { body, featureCount } = await encodeResult({ kind: "layer", data: layer }, format);
      const seconds = (performance.now() - started) / 1000;
      const mb = body.byteLength / 1e6;
      console.log(
        `[throughput] ${format}: ${featureCount} features, ${mb.toFixed(2)} MB in ${(seconds * 1000).toFixed(0)} ms = ${(mb / seconds).toFixed(1)} MB/s, ${Math.round(featureCount! / seconds).toLocaleString("en")} features/s`,
      );
      expect(featureCount).toBe(COUNT);
      if (format === "geoparquet") {
        const metadata = parquetMetadata(toArrayBuffer(body));
        expect(metadata.num_rows).toBe(BigInt(COUNT));
        expect(metadata.row_groups.length).toBe(Math.ceil(COUNT / DEFAULT_ROW_GROUP_ROWS));
        expect(geoMetadata(metadata)).toMatchObject({ columns: { geometry: { geometry_types: ["Point"] } } });
      } else {
        expect(JSON.parse(Buffer.from(body).toString("utf8")).features).toHaveLength(COUNT);
      }
    }
  });
});
