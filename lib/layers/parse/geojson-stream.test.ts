import { describe, expect, it } from "vitest";
import { parseGeoJsonStream } from "./geojson-stream";
import { DEFAULT_PARSE_LIMITS, type TParseLimits } from "./limits";
import { collect, cutAt, failure, piecesOf, utf8, wholeFileGeoJsonErrors } from "./test-support";

const point = (x: number, y: number, props: Record<string, unknown> | null = {}) => ({
  type: "Feature",
  properties: props,
  geometry: { type: "Point", coordinates: [x, y] },
});
const fc = <T>(features: T[], extra: Record<string, unknown> = {}) => ({ type: "FeatureCollection", ...extra, features });
const once = (bytes: Uint8Array) => cutAt(bytes, []);
const parse = (text: string, limits: TParseLimits = DEFAULT_PARSE_LIMITS) => parseGeoJsonStream(once(utf8(text)), limits);

/** What the streamed parse must yield for a valid document: its features, properties null -> {}. */
const expected = (doc: { features: { properties?: unknown }[] }) => doc.features.map((f) => ({ ...f, properties: f.properties ?? {} }));

const SAMPLE = fc(
  [
    point(8.54, 47.37, { name: "Zürich", note: "naïve café", emoji: "🗺️ map" }),
    {
      type: "Feature",
      id: 7,
      properties: null,
      geometry: {
        type: "LineString",
        coordinates: [
          [139.69, 35.69],
          [135.5, 34.69, 12.5],
        ],
      },
      bbox: [135.5, 34.69, 139.69, 35.69],
    },
    { type: "Feature", properties: { city: "東京", escaped: 'quote " slash \\ tab \t' }, geometry: null },
    {
      type: "Feature",
      properties: { n: -1.5e-7, ok: true, none: null, list: [1, "二", { deep: [] }] },
      geometry: {
        type: "Polygon",
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
    },
    {
      type: "Feature",
      properties: {},
      geometry: {
        type: "GeometryCollection",
        geometries: [
          { type: "Point", coordinates: [-180, -90] },
          { type: "MultiPoint", coordinates: [] },
        ],
      },
    },
  ],
  { name: "sample", crs: { type: "name", properties: { name: "urn:ogc:def:crs:OGC:1.3:CRS84" } } },
);

describe("parseGeoJsonStream", () => {
  it("yields the features of a FeatureCollection as JSON.parse reads them, properties null -> {}", async () => {
    const text = JSON.stringify(SAMPLE, null, 2);
    expect(await collect(parse(text))).toEqual(expected(SAMPLE));
    expect(await collect(parse(`\uFEFF${text}\n`))).toEqual(expected(SAMPLE)); // a UTF-8 BOM is allowed
    expect(await collect(parse('{"features":[],"type":"FeatureCollection"}'))).toEqual([]);
  });

  it("gives the same features whatever byte the stream is cut at (multi-byte characters included)", async () => {
    const bytes = utf8(JSON.stringify(SAMPLE));
    const want = expected(SAMPLE);
    for (let cut = 0; cut <= bytes.byteLength; cut++) expect(await collect(parseGeoJsonStream(cutAt(bytes, [cut])))).toEqual(want);
    for (let a = 0; a < bytes.byteLength; a += 23)
      for (let b = a + 1; b < bytes.byteLength; b += 29) expect(await collect(parseGeoJsonStream(cutAt(bytes, [a, b])))).toEqual(want);
    expect(await collect(parseGeoJsonStream(piecesOf(bytes, 1)))).toEqual(want);
    // Each of the 4 bytes of the emoji in its own chunk.
    const at = Buffer.from(bytes).indexOf(Buffer.from("🗺"));
    expect(await collect(parseGeoJsonStream(cutAt(bytes, [at + 1, at + 2, at + 3])))).toEqual(want);
  });

  it("keeps an integer literal a double cannot hold as its decimal text in properties, wherever the stream is cut", async () => {
    const text =
      '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"population":9007199254740993,"id":1234567890123456789,"small":9007199254740991,"list":[-12345678901234567890],"f":1e20},"geometry":{"type":"Point","coordinates":[1,2]}}]}';
    const want = [
      point(1, 2, { population: "9007199254740993", id: "1234567890123456789", small: 9007199254740991, list: ["-12345678901234567890"], f: 1e20 }),
    ];
    const bytes = utf8(text);
    for (let cut = 0; cut <= bytes.byteLength; cut++) expect(await collect(parseGeoJsonStream(cutAt(bytes, [cut])))).toEqual(want);
    // A number anywhere else is the double JSON.parse makes, named as a number in messages.
    const err = await failure(parse('{"type":"FeatureCollection","features":12345678901234567890}'));
    expect(err.errors![0]!.message).toBe("features must be an array, got number");
  });

  it("names each faulty feature, field and message as the whole-file import did", async () => {
    const bad = fc([
      point(1, 1),
      { type: "Feature", properties: {}, geometry: { type: "Point", coordinates: ["x", 1] } },
      point(181, 95),
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
      { type: "Feature", properties: {}, geometry: { type: "LineString", coordinates: [[0, 0]] } },
      { type: "Feature", properties: {}, geometry: { type: "Circle", coordinates: [0, 0] } },
      { type: "Feature", properties: {} },
      { type: "Feature", geometry: null, properties: [1] },
      { type: "Feature", geometry: null, properties: {}, id: true },
      5,
      null,
      { type: "Feat", geometry: null, properties: {} },
      {
        type: "Feature",
        properties: {},
        geometry: {
          type: "MultiPolygon",
          coordinates: [
            [
              [
                [0, 0],
                [1, 0],
                [0, 0],
              ],
            ],
          ],
        },
      },
      { type: "Feature", properties: {}, geometry: { type: "GeometryCollection", geometries: [{ type: "Point", coordinates: [0] }] } },
    ]);
    const err = await failure(parse(JSON.stringify(bad)));
    expect(err.code).toBe("validation_failed");
    expect(err.errors).toEqual(wholeFileGeoJsonErrors(bad));
    expect(err.errors![0]).toEqual({
      field: "/file/features/1/geometry/coordinates/0",
      code: "invalid_position",
      message: "Feature 1: Position element 0 must be a finite number, got string",
    });
    expect(err.detail).toBe(`The GeoJSON file has ${wholeFileGeoJsonErrors(bad).length} problems.`);
  });

  it("names an invalid polygon by its place in the file, after other faulty features too", async () => {
    const bowTie = [[[10, 10], [12, 12], [12, 10], [10, 12], [10, 10]]]; // prettier-ignore
    const bad = fc([
      { type: "Feature", properties: {}, geometry: { type: "Point", coordinates: ["x", 1] } },
      point(1, 1),
      { type: "Feature", properties: { name: "Tie" }, geometry: { type: "Polygon", coordinates: bowTie } },
    ]);
    const err = await failure(parse(JSON.stringify(bad)));
    expect(err.errors!.map((e) => e.field)).toEqual(["/file/features/0/geometry/coordinates/0", "/file/features/2/geometry"]);
    expect(err.errors![1]).toEqual({
      field: "/file/features/2/geometry",
      code: "invalid_polygon",
      message: 'Feature 2 ("Tie") is not a valid polygon: ring 0 crosses itself near (11, 11).',
    });
    expect(err.detail).toBe("The GeoJSON file has 2 problems.");
  });

  it("refuses an invalid polygon inside a GeometryCollection as it refuses a plain one, naming the member", async () => {
    const bowTie = [[[0, 0], [10, 10], [10, 0], [0, 10], [0, 0]]]; // prettier-ignore
    const square = [[[20, 20], [21, 20], [21, 21], [20, 21], [20, 20]]]; // prettier-ignore
    const collection = (geometries: unknown[]) => ({ type: "Feature", properties: { name: "p" }, geometry: { type: "GeometryCollection", geometries } });
    const err = await failure(
      parse(
        JSON.stringify(
          fc([
            collection([{ type: "Polygon", coordinates: bowTie }]),
            collection([
              { type: "Point", coordinates: [0, 0] },
              { type: "GeometryCollection", geometries: [{ type: "MultiPolygon", coordinates: [square, bowTie] }] },
            ]),
            collection([{ type: "Polygon", coordinates: square }]),
          ]),
        ),
      ),
    );
    expect(err.errors).toEqual([
      {
        field: "/file/features/0/geometry/geometries/0",
        code: "invalid_polygon",
        message: 'Feature 0 ("p") is not a valid polygon: geometries/0: ring 0 crosses itself near (5, 5).',
      },
      {
        field: "/file/features/1/geometry/geometries/1/geometries/0",
        code: "invalid_polygon",
        message: 'Feature 1 ("p") is not a valid polygon: geometries/1/geometries/0: polygon 1: ring 0 crosses itself near (5, 5).',
      },
    ]);
  });

  it("refuses property values that cannot be stored (a NUL in a key or a value, 1e400, nesting past 64 levels), naming feature and property", async () => {
    let deep = '{"v":1}';
    for (let i = 1; i < 70; i++) deep = `{"n":${deep}}`;
    const text = `{"type":"FeatureCollection","features":[
      {"type":"Feature","properties":{"a\\u0000":"x"},"geometry":null},
      {"type":"Feature","properties":{"ok":"fine"},"geometry":null},
      {"type":"Feature","properties":{"big":1e400,"name":"a\\u0000b"},"geometry":null},
      {"type":"Feature","properties":{"deep":${deep}},"geometry":null}]}`;
    const err = await failure(parse(text));
    expect(err.errors!.map((e) => [e.field, e.code])).toEqual([
      ["/file/features/0/properties/a\\u0000", "nul_character"],
      ["/file/features/2/properties/big", "invalid_number"],
      ["/file/features/2/properties/name", "nul_character"],
      [`/file/features/3/properties/deep${"/n".repeat(63)}`, "too_deep"],
    ]);
    expect(err.errors![0]!.message).toBe('Feature 0, property "a\\u0000": the name contains a NUL character (\\u0000), which cannot be stored; rename it.');
    expect(err.errors![1]!.message).toMatch(
      /^Feature 2, property "big": Infinity is not a finite number \(a number too large for a 64-bit double, such as 1e400/,
    );
  });

  it("refuses a crs member naming another CRS than longitude/latitude on WGS 84, before or after the features; accepts CRS84, EPSG:4326 and null", async () => {
    const crs = (name: string) => ({ type: "name", properties: { name } });
    for (const member of [crs("urn:ogc:def:crs:OGC:1.3:CRS84"), crs("EPSG:4326"), null])
      expect(await collect(parse(JSON.stringify(fc([point(1, 2)], { crs: member }))))).toEqual([point(1, 2)]);
    const before = await failure(parse(JSON.stringify(fc([point(1, 2)], { crs: crs("urn:ogc:def:crs:EPSG::3857") }))));
    expect(before.errors).toEqual([
      {
        field: "/file/crs",
        code: "unsupported_crs",
        message: expect.stringMatching(/^The file declares the CRS "urn:ogc:def:crs:EPSG::3857" in its crs member \(GeoJSON 2008\); GeoJSON \(RFC 7946\)/),
      },
    ]);
    const after = await failure(
      parse(`{"type":"FeatureCollection","features":[${JSON.stringify(point(1, 2))}],"crs":{"type":"name","properties":{"name":"EPSG:3857"}}}`),
    );
    expect(after.errors!.map((e) => e.field)).toEqual(["/file/crs"]);
    const onFeature = await failure(parse(JSON.stringify(fc([{ ...point(1, 2), crs: crs("EPSG:2056") }]))));
    expect(onFeature.errors).toEqual([
      { field: "/file/features/0/crs", code: "unsupported_crs", message: expect.stringMatching(/^Feature 0 declares the CRS "EPSG:2056"/) },
    ]);
  });

  it("refuses what is not a FeatureCollection with the whole-file messages", async () => {
    for (const doc of [
      [point(1, 1)],
      point(1, 1),
      { type: "FeatureCollection", features: { a: point(1, 1) } },
      { type: "FeatureCollection", features: 3 },
      { type: "FeatureCollection" },
      { type: ["FeatureCollection"], features: [] },
      "FeatureCollection",
      42,
      null,
    ]) {
      const err = await failure(parse(JSON.stringify(doc)));
      // A wrong `type` stops the reading at once: of the whole-file errors, only that one is left.
      const whole = wholeFileGeoJsonErrors(doc);
      expect(err.errors, JSON.stringify(doc)).toEqual(whole[0]!.field === "/file/type" ? [whole[0]] : whole);
    }
  });

  it("stops reading a bare Feature at its type member", async () => {
    let pulled = 0;
    async function* bare() {
      yield utf8('{"type":"Feature","properties":{},"geometry":{"type":"MultiPoint","coordinates":[');
      for (;;) {
        pulled++;
        yield utf8("[1,2],");
      }
    }
    expect((await failure(parseGeoJsonStream(bare()))).errors).toEqual([
      { field: "/file/type", code: "invalid_geojson", message: 'Expected type "FeatureCollection", got "Feature"' },
    ]);
    expect(pulled).toBe(0);
  });

  it("refuses text that is not JSON, truncated, or followed by more", async () => {
    for (const text of [
      "{not json",
      '{"type":"FeatureCollection","features":[',
      '{"type":"FeatureCollection","features":[]} x',
      '{"type":"FeatureCollection","features":[1 2]}',
      "   ",
      '{"type":"FeatureCollection","features":[{"a":}]}',
    ]) {
      const err = await failure(parse(text));
      expect(err.errors, text).toHaveLength(1);
      expect(err.errors![0]).toMatchObject({ field: "/file", code: "invalid_json" });
      expect(err.errors![0]!.message).toMatch(/^The file is not JSON: /);
    }
  });

  it("lists the first 20 problems and stops reading after the 21st", async () => {
    const bad = { type: "Feature", properties: {}, geometry: { type: "Point", coordinates: [200, 0] } };
    const features = Array.from({ length: 5000 }, () => bad);
    let pulled = 0;
    const bytes = utf8(JSON.stringify(fc(features)));
    async function* counted() {
      for await (const c of piecesOf(bytes, 256)) {
        pulled++;
        yield c;
      }
    }
    const err = await failure(parseGeoJsonStream(counted()));
    expect(err.errors).toEqual(wholeFileGeoJsonErrors(fc(features)));
    expect(err.errors).toHaveLength(20);
    expect(err.detail).toBe("The GeoJSON file has more than 20 problems (first 20 listed).");
    expect(pulled).toBeLessThan(Math.ceil(bytes.byteLength / 256) / 10);
  });

  it("stops at the first feature past maxItems and at the first byte past maxBytes", async () => {
    const doc = fc(Array.from({ length: 10 }, (_, i) => point(i, i)));
    expect(await collect(parse(JSON.stringify(doc), { maxBytes: 1e6, maxItems: 10 }))).toHaveLength(10);
    const many = await failure(parse(JSON.stringify(doc), { maxBytes: 1e6, maxItems: 9 }));
    expect(many.errors).toEqual([{ field: "/file/features", code: "too_many_features", message: "At most 9 features are accepted; the file has more." }]);

    let pulled = 0;
    async function* endless() {
      yield utf8('{"type":"FeatureCollection","features":[');
      for (;;) {
        pulled++;
        yield utf8(JSON.stringify(point(1, 2)) + ",");
      }
    }
    const big = await failure(parseGeoJsonStream(endless(), { maxBytes: 10_000, maxItems: 1e9 }));
    expect(big.code).toBe("payload_too_large");
    expect(big.detail).toMatch(/^A layer file may be at most 9\.8 KiB; this one is larger/);
    const perChunk = JSON.stringify(point(1, 2)).length + 1;
    expect(pulled).toBe(Math.floor((10_000 - 40) / perChunk) + 1); // the chunk that passes the limit is the last one read
  });

  it("refuses one feature or member larger than maxItemBytes, before it is read whole", async () => {
    const huge = { type: "Feature", properties: { s: "x".repeat(5000) }, geometry: null };
    const limits = { maxBytes: 1e9, maxItems: 100, maxItemBytes: 1000 };
    const text = JSON.stringify(fc([point(0, 0), huge]));
    const err = await failure(parseGeoJsonStream(piecesOf(utf8(text), 500), limits));
    expect(err.errors).toEqual([{ field: "/file/features/1", code: "too_large", message: "Feature 1 is larger than 1000 bytes." }]);
    const member = await failure(parseGeoJsonStream(piecesOf(utf8(JSON.stringify(fc([], { junk: [huge] }))), 500), limits));
    expect(member.errors).toEqual([{ field: "/file/junk", code: "too_large", message: "The member at /file/junk is larger than 1000 bytes." }]);
  });

  it("refuses an empty upload", async () => {
    const err = await failure(parseGeoJsonStream(cutAt(new Uint8Array(0), [])));
    expect(err.errors).toEqual([{ field: "/file", code: "required", message: "The file is empty." }]);
  });
});
