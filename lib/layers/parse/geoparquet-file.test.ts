import { describe, expect, it } from "vitest";
import { parquetMetadata, type AsyncBuffer, type FileMetaData } from "hyparquet";
import { ByteWriter, geojsonToWkb, parquetWriteBuffer } from "hyparquet-writer";
import { writeMetadata } from "hyparquet-writer/src/metadata.js";
import { encodeGeoParquet } from "@/lib/formats/geoparquet/write";
import type { TFeature } from "@/lib/engine/types";
import { MAX_ROW_GROUP_BYTES, parseGeoParquetFile } from "./geoparquet-file";
import { collect, failure, utf8, wholeFileGeoJsonErrors } from "./test-support";
import { tempDir, writeToBytes } from "@/lib/layers/layer-file/test-support";

const point = (x: number, y: number, props: Record<string, unknown> = {}): TFeature => ({
  type: "Feature",
  properties: props,
  geometry: { type: "Point", coordinates: [x, y] },
});

/** An AsyncBuffer over `bytes` that counts the bytes handed out. */
function buffer(bytes: Uint8Array): AsyncBuffer & { read: number } {
  const b = {
    byteLength: bytes.byteLength,
    read: 0,
    slice(start: number, end = bytes.byteLength) {
      b.read += end - start;
      return bytes.slice(start, end).buffer as ArrayBuffer;
    },
  };
  return b;
}

async function geoParquet(features: TFeature[], rowGroupRows?: number): Promise<Uint8Array> {
  return (await encodeGeoParquet({ kind: "features", features }, { rowGroupRows })).body;
}

/** `file` with its footer replaced by `edit(footer)` written back with hyparquet-writer. */
function forge(file: Uint8Array, edit: (m: FileMetaData) => void, padTo = 0): Uint8Array {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const footerBytes = view.getUint32(file.byteLength - 8, true);
  const dataEnd = file.byteLength - 8 - footerBytes;
  const metadata = parquetMetadata(file.slice(dataEnd).buffer as ArrayBuffer, { geoparquet: false });
  edit(metadata);
  const w = new ByteWriter();
  w.appendBytes(file.subarray(0, dataEnd));
  if (padTo > dataEnd) w.appendBytes(new Uint8Array(padTo - dataEnd)); // padding between data and footer, referenced by nothing
  writeMetadata(w, metadata);
  w.appendUint32(0x31524150);
  return new Uint8Array(w.getBuffer());
}

const FEATURES: TFeature[] = [
  point(8.5, 47.3, { name: "Zurich", pop: 400000, ratio: 0.5 }),
  {
    type: "Feature",
    properties: { name: "Lake", pop: null, ratio: 1.25 },
    geometry: {
      type: "Polygon",
      coordinates: [
        [
          [6, 46],
          [7, 46],
          [7, 47],
          [6, 46],
        ],
      ],
    },
  },
  { type: "Feature", properties: { name: "Nowhere", pop: 1, ratio: null }, geometry: null },
  {
    type: "Feature",
    properties: { name: "Rhine", pop: 2, ratio: 2 },
    geometry: {
      type: "LineString",
      coordinates: [
        [7.5, 47.5, 250],
        [8, 47.6, 300],
      ],
    },
  },
];

describe("parseGeoParquetFile", () => {
  it("yields the features written by the service's own encoder, geometry from the geo metadata's primary column", async () => {
    expect(await collect(parseGeoParquetFile(buffer(await geoParquet(FEATURES))))).toEqual(FEATURES);
  });

  it("leaves out the columns derived from the geometry: GeoParquet 1.1 bbox coverings, and a layer file's position column, its renamed columns named back", async () => {
    // a layer file as the service writes it: Hilbert order, a `bbox` covering, an `input_position`
    // column, and the properties called "bbox" and "input_position" stored under other names
    const features = [
      point(10, 10, { bbox: "a", input_position: 1, n: 1 }),
      point(-120, -40, { bbox: "b", input_position: 2, n: 2 }),
      point(100, 60, { n: 3 }),
    ];
    const tmp = await tempDir();
    try {
      const { bytes } = await writeToBytes(features, { kind: "features", tmpDir: tmp.dir });
      const read = await collect(parseGeoParquetFile(buffer(new Uint8Array(bytes))));
      const key = (f: TFeature) => f.properties.n as number;
      expect(read.sort((a, b) => key(a) - key(b))).toEqual(features.map((f) => ({ ...f, properties: { bbox: null, input_position: null, ...f.properties } })));
    } finally {
      await tmp.remove();
    }
  });

  it("reads several row groups, in slices within a row group, in order", async () => {
    const many = Array.from({ length: 2500 }, (_, i) => point((i % 360) - 180 + 0.5, (i % 170) - 85, { i }));
    const file = await geoParquet(many, 300);
    expect(await collect(parseGeoParquetFile(buffer(file)))).toEqual(many);
    expect(await collect(parseGeoParquetFile(buffer(file), undefined, 7))).toEqual(many);
  });

  it("turns int64 into numbers when exact and into decimal text beyond 2^53, and uses the primary column even when not first", async () => {
    const geo = { version: "1.1.0", primary_column: "geom", columns: { geom: { encoding: "WKB", geometry_types: ["Point"] } } };
    const file = parquetWriteBuffer({
      columnData: [
        { name: "other_wkb", data: [utf8("not a geometry"), utf8("x")], type: "BYTE_ARRAY" },
        { name: "n", data: [5n, 2n ** 60n + 1n], type: "INT64" },
        {
          name: "geom",
          data: [geojsonToWkb({ type: "Point", coordinates: [1, 2] }), geojsonToWkb({ type: "Point", coordinates: [3, 4] })],
          type: "BYTE_ARRAY",
        },
      ],
      kvMetadata: [{ key: "geo", value: JSON.stringify(geo) }],
    });
    const features = await collect(parseGeoParquetFile(buffer(new Uint8Array(file))));
    expect(features.map((f) => [f.geometry, f.properties.n])).toEqual([
      [{ type: "Point", coordinates: [1, 2] }, 5],
      [{ type: "Point", coordinates: [3, 4] }, "1152921504606846977"],
    ]);
  });

  it("names faulty rows as the whole-file import did (feature index in the field, row from 1 in the message)", async () => {
    const bad = [point(1, 1), point(1, 95), point(200, 1)];
    const err = await failure(parseGeoParquetFile(buffer(await geoParquet(bad))));
    const want = wholeFileGeoJsonErrors({ type: "FeatureCollection", features: bad }).map((e) => ({
      ...e,
      message: e.message.replace(/^Feature (\d+)/, (_, i) => `Row ${Number(i) + 1}`),
    }));
    expect(err.errors).toEqual(want);
    expect(err.errors![0]).toEqual({
      field: "/file/features/1/geometry/coordinates/1",
      code: "invalid_position",
      message: "Row 2: Latitude 95 is outside -90..90",
    });
    expect(err.detail).toBe("The GeoParquet file has 2 problems.");
  });

  it("refuses a column value that is not a finite number or holds a NUL, naming row and column", async () => {
    const geo = { version: "1.1.0", primary_column: "geometry", columns: { geometry: { encoding: "WKB", geometry_types: ["Point"] } } };
    const file = parquetWriteBuffer({
      columnData: [
        { name: "d", data: [1.5, NaN, Infinity], type: "DOUBLE" },
        { name: "s", data: ["a", "b", "c\u0000"], type: "STRING" },
        { name: "geometry", data: [0, 1, 2].map((i) => geojsonToWkb({ type: "Point", coordinates: [i, i] })), type: "BYTE_ARRAY" },
      ],
      kvMetadata: [{ key: "geo", value: JSON.stringify(geo) }],
    });
    const err = await failure(parseGeoParquetFile(buffer(new Uint8Array(file))));
    expect(err.errors!.map((e) => [e.field, e.code, e.message.replace(/:.*/, "")])).toEqual([
      ["/file/features/1/properties/d", "invalid_number", 'Row 2, column "d"'],
      ["/file/features/2/properties/d", "invalid_number", 'Row 3, column "d"'],
      ["/file/features/2/properties/s", "nul_character", 'Row 3, column "s"'],
    ]);
  });

  it("reads a geometry column without crs (OGC:CRS84) or with CRS84 / EPSG:4326; refuses another CRS and an unknown one (null), naming the column", async () => {
    const withCrs = (crs?: unknown) =>
      parquetWriteBuffer({
        columnData: [
          { name: "id", data: [1], type: "INT32" },
          { name: "geom", data: [geojsonToWkb({ type: "Point", coordinates: [95, 60] })], type: "BYTE_ARRAY" },
        ],
        kvMetadata: [
          {
            key: "geo",
            value: JSON.stringify({
              version: "1.1.0",
              primary_column: "geom",
              columns: { geom: { encoding: "WKB", geometry_types: ["Point"], ...(crs === undefined ? {} : { crs }) } },
            }),
          },
        ],
      });
    const read = (crs?: unknown) => parseGeoParquetFile(buffer(new Uint8Array(withCrs(crs))));
    for (const crs of [undefined, { id: { authority: "OGC", code: "CRS84" } }, { id: { authority: "EPSG", code: 4326 } }, "OGC:CRS84"])
      expect(await collect(read(crs)), JSON.stringify(crs)).toEqual([point(95, 60, { id: 1 })]);
    const mercator = { type: "ProjectedCRS", name: "WGS 84 / Pseudo-Mercator", id: { authority: "EPSG", code: 3857 } };
    expect((await failure(read(mercator))).errors).toEqual([
      {
        field: "/file",
        code: "unsupported_crs",
        message:
          'The geometry column "geom" declares the CRS EPSG:3857 ("WGS 84 / Pseudo-Mercator"); only longitude/latitude on WGS 84 (OGC:CRS84, EPSG:4326) is read: reproject it to longitude/latitude first (e.g. GeoPandas to_crs(4326), ogr2ogr -t_srs EPSG:4326).',
      },
    ]);
    expect((await failure(read(null))).errors![0]).toMatchObject({
      field: "/file",
      code: "unsupported_crs",
      message: expect.stringMatching(/^The geometry column "geom" declares its CRS unknown \(crs: null\)/),
    });
  });

  it("names the row whose geometry is not WKB, or whose text is not UTF-8, instead of failing the whole file", async () => {
    const geo = { version: "1.1.0", primary_column: "geometry", columns: { geometry: { encoding: "WKB", geometry_types: ["Point"] } } };
    const file = parquetWriteBuffer({
      columnData: [
        { name: "name", data: [utf8("ok"), utf8("ok"), new Uint8Array([0x5a, 0xfc, 0x72])], type: "STRING" },
        {
          name: "geometry",
          data: [geojsonToWkb({ type: "Point", coordinates: [1, 2] }), new Uint8Array([1, 2, 3]), geojsonToWkb({ type: "Point", coordinates: [3, 4] })],
          type: "BYTE_ARRAY",
        },
      ],
      kvMetadata: [{ key: "geo", value: JSON.stringify(geo) }],
    });
    const err = await failure(parseGeoParquetFile(buffer(new Uint8Array(file))));
    expect(err.errors).toEqual([
      {
        field: "/file/features/1/geometry",
        code: "invalid_wkb",
        message: 'Row 2: the geometry (column "geometry") is not valid WKB (3 bytes: Offset is outside the bounds of the DataView).',
      },
      {
        field: "/file/features/2/properties/name",
        code: "undecodable",
        message: 'Row 3, column "name": the value is not UTF-8 text (byte offset 1 of the value).',
      },
    ]);
  });

  it("refuses at once, having read only the file's few KB, a footer that claims 4 billion rows", async () => {
    const real = await geoParquet([point(1, 2)]);
    const forged = forge(
      real,
      (m) => {
        m.num_rows = 4_000_000_000n;
        m.row_groups[0]!.num_rows = 4_000_000_000n;
      },
      8 * 1024,
    );
    expect(forged.byteLength).toBeGreaterThan(8 * 1024);
    expect(forged.byteLength).toBeLessThan(9 * 1024);
    const file = buffer(forged);
    const err = await failure(parseGeoParquetFile(file));
    expect(err.code).toBe("validation_failed");
    expect(err.errors).toEqual([
      { field: "/file", code: "too_many_rows", message: "The file's footer declares 4000000000 rows; at most 20000000 rows are accepted." },
    ]);
    expect(file.read).toBeLessThanOrEqual(forged.byteLength);
  });

  it("refuses footers whose sizes contradict the file or pass the caps, before decoding", async () => {
    const real = await geoParquet(FEATURES);
    const cases: [string, (m: FileMetaData) => void, object][] = [
      ["rows", (m) => (m.num_rows = 5n), { code: "invalid_parquet", message: "The file's footer declares 5 rows, but its row groups hold 4." }],
      ["chunk size", (m) => (m.row_groups[0]!.columns[0]!.meta_data!.total_compressed_size = 1n << 40n), { code: "invalid_parquet" }],
      ["chunk offset", (m) => (m.row_groups[0]!.columns[1]!.meta_data!.data_page_offset = 2n), { code: "invalid_parquet" }],
      ["uncompressed", (m) => (m.row_groups[0]!.columns[0]!.meta_data!.total_uncompressed_size = BigInt(MAX_ROW_GROUP_BYTES) + 1n), { code: "too_large" }],
      ["no geo", (m) => (m.key_value_metadata = []), { code: "no_geometry" }],
      ["geo size", (m) => (m.key_value_metadata = [{ key: "geo", value: " ".repeat(2 * 1024 * 1024) }]), { code: "too_large" }],
      [
        "not WKB",
        (m) => (m.key_value_metadata = [{ key: "geo", value: JSON.stringify({ primary_column: "geometry", columns: { geometry: { encoding: "point" } } }) }]),
        { code: "no_geometry" },
      ],
      [
        "no column",
        (m) => (m.key_value_metadata = [{ key: "geo", value: JSON.stringify({ primary_column: "geom", columns: { geom: { encoding: "WKB" } } }) }]),
        { code: "no_geometry" },
      ],
    ];
    for (const [what, edit, error] of cases) {
      const err = await failure(parseGeoParquetFile(buffer(forge(real, edit))));
      expect(err.errors, what).toHaveLength(1);
      expect(err.errors![0], what).toMatchObject({ field: "/file", ...error });
    }
  });

  it("refuses what is not Parquet, a footer length past the file, an empty file and a file past maxBytes", async () => {
    const real = await geoParquet(FEATURES);
    const longFooter = real.slice();
    new DataView(longFooter.buffer).setUint32(longFooter.byteLength - 8, real.byteLength, true);
    const cases: [Uint8Array, object][] = [
      [
        utf8('{"type":"FeatureCollection","features":[]}'),
        { code: "invalid_parquet", message: "The file is not Parquet (it does not start and end with PAR1)." },
      ],
      [utf8("PAR1"), { code: "invalid_parquet" }],
      [
        longFooter,
        {
          code: "invalid_parquet",
          message: `The file's footer claims ${real.byteLength} bytes of metadata, but the file has ${real.byteLength} bytes in all.`,
        },
      ],
      [new Uint8Array(0), { code: "required", message: "The file is empty." }],
    ];
    for (const [bytes, error] of cases) expect((await failure(parseGeoParquetFile(buffer(bytes)))).errors![0]).toMatchObject({ field: "/file", ...error });
    expect((await failure(parseGeoParquetFile(buffer(real), { maxBytes: real.byteLength - 1, maxItems: 10 }))).code).toBe("payload_too_large");
    expect((await failure(parseGeoParquetFile(buffer(real), { maxBytes: 1e9, maxItems: 3 }))).errors![0]).toMatchObject({
      field: "/file",
      code: "too_many_rows",
    });
  });
});
