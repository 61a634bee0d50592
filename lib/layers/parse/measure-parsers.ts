/**
 * Throughput and peak memory of the upload parsers, one format per process so each peak RSS
 * is its own: `node --import tsx lib/layers/parse/measure-parsers.ts geojson|geojsonseq|csv|geoparquet [MB]`.
 * Prints one JSON line: `{ format, mb, items, seconds, cpuSeconds, mbPerSecond, itemsPerSecond, mbPerCpuSecond,
 * itemsPerCpuSecond, peakRssMb, baseRssMb }`.
 *
 * The text formats are generated on the fly and never held whole: a block of about 1 MB of
 * features (half points with three properties, half 16-vertex polygons) is encoded once and
 * streamed repeatedly in 64 KiB chunks, so the generator costs next to nothing and the
 * parser's memory is all that grows. GeoParquet is written in memory first (by the service's
 * own encoder) and then read; its peak includes the file.
 * Not a test: numbers inform (they belong in `npm run bench` once the parsers are wired in).
 */
import { encodeGeoParquet } from "@/lib/formats/geoparquet/write";
import type { TFeature } from "@/lib/engine/types";
import { parseCsvStream } from "./csv-stream";
import { parseGeoJsonSeqStream } from "./geojson-seq-stream";
import { parseGeoJsonStream } from "./geojson-stream";
import { parseGeoParquetFile } from "./geoparquet-file";
import { DEFAULT_PARSE_LIMITS } from "./limits";

const format = process.argv[2] ?? "geojson";
const targetMb = Number(process.argv[3] ?? 200);
const CHUNK = 64 * 1024;

function feature(i: number): TFeature {
  const x = ((i * 7.31) % 350) - 175;
  const y = ((i * 3.17) % 170) - 85;
  if (i % 2 === 0)
    return { type: "Feature", properties: { id: i, name: `place ${i}`, pop: (i * 37) % 100000 }, geometry: { type: "Point", coordinates: [x, y] } };
  const ring = Array.from({ length: 16 }, (_, k) => [x + Math.cos((k / 16) * 2 * Math.PI) * 0.5, y + Math.sin((k / 16) * 2 * Math.PI) * 0.5]);
  ring.push(ring[0]!);
  return { type: "Feature", properties: { id: i, name: `area ${i}` }, geometry: { type: "Polygon", coordinates: [ring] } };
}

/** `head`, then `block` repeated until about `targetMb` MB, then `tail`, in CHUNK-byte pieces. */
async function* repeated(head: string, block: Uint8Array, sep: string, tail: string, times: number): AsyncGenerator<Uint8Array> {
  const enc = new TextEncoder();
  yield enc.encode(head);
  const sepBytes = enc.encode(sep);
  for (let t = 0; t < times; t++) {
    if (t > 0 && sepBytes.length) yield sepBytes;
    for (let at = 0; at < block.byteLength; at += CHUNK) yield block.subarray(at, at + CHUNK);
  }
  yield enc.encode(tail);
}

async function measure(items: AsyncIterable<unknown>, bytes: () => number): Promise<void> {
  const baseRssMb = process.memoryUsage().rss / 1e6;
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  let n = 0;
  for await (const _ of items) n++;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  // CPU seconds as well as wall time: on a shared machine the wall clock mostly measures the neighbours.
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const mb = bytes() / 1e6;
  const peakRssMb = process.resourceUsage().maxRSS / 1e3;
  console.log(
    JSON.stringify({
      format,
      mb: +mb.toFixed(1),
      items: n,
      seconds: +seconds.toFixed(2),
      cpuSeconds: +cpuSeconds.toFixed(2),
      mbPerSecond: +(mb / seconds).toFixed(1),
      itemsPerSecond: Math.round(n / seconds),
      mbPerCpuSecond: +(mb / cpuSeconds).toFixed(1),
      itemsPerCpuSecond: Math.round(n / cpuSeconds),
      peakRssMb: Math.round(peakRssMb),
      baseRssMb: Math.round(baseRssMb),
    }),
  );
}

const perBlock = 4_000;
const features = Array.from({ length: perBlock }, (_, i) => feature(i));
const limits = { ...DEFAULT_PARSE_LIMITS };
let total = 0;
const counting = async function* (source: AsyncIterable<Uint8Array>) {
  for await (const c of source) {
    total += c.byteLength;
    yield c;
  }
};

if (format === "geojson") {
  const block = new TextEncoder().encode(features.map((f) => JSON.stringify(f)).join(","));
  const times = Math.ceil((targetMb * 1e6) / block.byteLength);
  await measure(parseGeoJsonStream(counting(repeated('{"type":"FeatureCollection","features":[', block, ",", "]}", times)), limits), () => total);
} else if (format === "geojsonseq") {
  const block = new TextEncoder().encode(features.map((f) => "\u001e" + JSON.stringify(f) + "\n").join(""));
  const times = Math.ceil((targetMb * 1e6) / block.byteLength);
  await measure(parseGeoJsonSeqStream(counting(repeated("", block, "", "", times)), limits), () => total);
} else if (format === "csv") {
  const rows = Array.from(
    { length: perBlock },
    (_, i) => `${i},place ${i},"note, with comma",${(((i * 7.31) % 350) - 175).toFixed(5)},${(((i * 3.17) % 170) - 85).toFixed(5)}\n`,
  );
  const block = new TextEncoder().encode(rows.join(""));
  const times = Math.ceil((targetMb * 1e6) / block.byteLength);
  const stream = parseCsvStream(counting(repeated("id,name,note,lon,lat\n", block, "", "", times)), {}, limits);
  await measure(stream, () => total);
  stream.columnTypes();
} else if (format === "geoparquet") {
  const all: TFeature[] = [];
  for (let i = 0; all.length < targetMb * 5_000; i++) all.push(feature(i));
  const { body } = await encodeGeoParquet({ kind: "features", features: all });
  all.length = 0;
  const file = { byteLength: body.byteLength, slice: (s: number, e?: number) => body.slice(s, e).buffer as ArrayBuffer };
  await measure(parseGeoParquetFile(file, limits), () => body.byteLength);
} else {
  throw new Error(`unknown format ${format}`);
}
