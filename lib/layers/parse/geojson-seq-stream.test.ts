import { describe, expect, it } from "vitest";
import { parseGeoJsonSeqStream } from "./geojson-seq-stream";
import { collect, cutAt, failure, piecesOf, utf8, wholeFileGeoJsonErrors } from "./test-support";

const RS = "\u001e";
const point = (x: number, y: number, props: Record<string, unknown> | null = {}) => ({
  type: "Feature",
  properties: props,
  geometry: { type: "Point", coordinates: [x, y] },
});
const FEATURES = [
  point(8.54, 47.37, { name: "Zürich", emoji: "🗺️" }),
  {
    type: "Feature",
    id: "b",
    properties: null,
    geometry: {
      type: "LineString",
      coordinates: [
        [139.69, 35.69],
        [135.5, 34.69],
      ],
    },
  },
  { type: "Feature", properties: { city: "東京" }, geometry: null },
];
const withEmptyProps = (fs: { properties?: unknown }[]) => fs.map((f) => ({ ...f, properties: f.properties ?? {} }));
const parse = (text: string, limits?: { maxBytes: number; maxItems: number; maxItemBytes?: number }) => parseGeoJsonSeqStream(cutAt(utf8(text), []), limits);

/** RFC 8142 framing: RS, the JSON text (here pretty-printed over several lines), LF. */
const rfc8142 = (values: unknown[]) => values.map((v) => `${RS}${JSON.stringify(v, null, 2)}\n`).join("");
const ndjson = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join("\n") + "\n";

describe("parseGeoJsonSeqStream", () => {
  it("reads RFC 8142 sequences (RS-prefixed, records over several lines) and newline-delimited GeoJSON alike", async () => {
    const want = withEmptyProps(FEATURES);
    expect(await collect(parse(rfc8142(FEATURES)))).toEqual(want);
    expect(await collect(parse(ndjson(FEATURES)))).toEqual(want);
    // CRLF, blank lines, no final newline, a BOM, RS records without the final LF.
    expect(await collect(parse("\uFEFF\r\n" + FEATURES.map((f) => JSON.stringify(f)).join("\r\n\r\n")))).toEqual(want);
    expect(await collect(parse("\uFEFF" + FEATURES.map((f) => RS + JSON.stringify(f)).join("") + RS))).toEqual(want);
  });

  it("gives the same features whatever byte the stream is cut at", async () => {
    const want = withEmptyProps(FEATURES);
    for (const text of ["\uFEFF" + rfc8142(FEATURES), "\n" + ndjson(FEATURES)]) {
      const bytes = utf8(text);
      for (let cut = 0; cut <= bytes.byteLength; cut++) expect(await collect(parseGeoJsonSeqStream(cutAt(bytes, [cut])))).toEqual(want);
      expect(await collect(parseGeoJsonSeqStream(piecesOf(bytes, 1)))).toEqual(want);
    }
  });

  it("names faulty records by feature index, with the FeatureCollection messages", async () => {
    const values = [
      point(1, 1),
      { type: "Feature", properties: {}, geometry: { type: "Point", coordinates: ["x", 1] } },
      { type: "FeatureCollection", features: [] },
      {
        type: "Feature",
        properties: {},
        geometry: {
          type: "Polygon",
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 1],
            ],
          ],
        },
      },
    ];
    for (const text of [rfc8142(values), ndjson(values)]) {
      const err = await failure(parse(text));
      expect(err.errors).toEqual(wholeFileGeoJsonErrors({ type: "FeatureCollection", features: values }));
      expect(err.detail).toBe(`The GeoJSON sequence has ${err.errors!.length} problems.`);
    }
  });

  it("keeps an integer literal a double cannot hold as its decimal text in properties, and reads other numbers as JSON.parse does", async () => {
    const record =
      '{"type":"Feature","properties":{"population":9007199254740993,"s":"12345678901234567890","x":0.12345678901234567,"list":[-12345678901234567890]},"geometry":{"type":"Point","coordinates":[1,2]}}';
    expect(await collect(parse(`${record}\n${JSON.stringify(point(3, 4, { n: 5 }))}\n`))).toEqual([
      point(1, 2, { population: "9007199254740993", s: "12345678901234567890", x: 0.12345678901234567, list: ["-12345678901234567890"] }),
      point(3, 4, { n: 5 }),
    ]);
  });

  it("refuses a record with a byte that is not UTF-8, naming it (and its line)", async () => {
    const latin1 = Buffer.concat([
      Buffer.from(`${JSON.stringify(point(1, 1))}\n{"type":"Feature","properties":{"s":"caf`),
      Buffer.from([0xe9]),
      Buffer.from('"},"geometry":null}\n'),
    ]);
    for (let cut = 0; cut <= latin1.length; cut += 7)
      expect((await failure(parseGeoJsonSeqStream(cutAt(latin1, [cut])))).errors).toEqual([
        {
          field: "/file/features/1",
          code: "invalid_encoding",
          message: "Feature 1 (line 2) is not UTF-8 text: the byte 0xE9 at byte offset 40 of the record is not UTF-8; save the file as UTF-8.",
        },
      ]);
  });

  it("names a record that is not JSON by its index (and line, when newline-delimited)", async () => {
    const nd = await failure(parse(`\n${JSON.stringify(point(1, 1))}\n\n{"type": "Feature",\n`));
    expect(nd.errors).toHaveLength(1);
    expect(nd.errors![0]).toMatchObject({ field: "/file/features/1", code: "invalid_json" });
    expect(nd.errors![0]!.message).toMatch(/^Feature 1 \(line 4\) is not JSON: /);
    const rs = await failure(parse(`${RS}${JSON.stringify(point(1, 1))}\n${RS}{"type":\n`));
    expect(rs.errors![0]).toMatchObject({ field: "/file/features/1", code: "invalid_json" });
    expect(rs.errors![0]!.message).toMatch(/^Feature 1 is not JSON: /);
  });

  it("stops past maxItems, past maxItemBytes in one record, and past maxBytes", async () => {
    const text = ndjson(Array.from({ length: 5 }, (_, i) => point(i, i)));
    expect(await collect(parse(text, { maxBytes: 1e6, maxItems: 5 }))).toHaveLength(5);
    expect((await failure(parse(text, { maxBytes: 1e6, maxItems: 4 }))).errors).toEqual([
      { field: "/file/features", code: "too_many_features", message: "At most 4 features are accepted; the file has more." },
    ]);
    const long = ndjson([point(0, 0), point(1, 1, { s: "x".repeat(3000) })]);
    expect((await failure(parseGeoJsonSeqStream(piecesOf(utf8(long), 100), { maxBytes: 1e6, maxItems: 10, maxItemBytes: 2048 }))).errors).toEqual([
      { field: "/file/features/1", code: "too_large", message: "Feature 1 is larger than 2 KiB." },
    ]);
    expect((await failure(parse(text, { maxBytes: text.length - 1, maxItems: 10 }))).code).toBe("payload_too_large");
  });
});
