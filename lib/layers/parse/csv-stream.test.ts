import { describe, expect, it } from "vitest";
import { csvValue, parseCsvStream, typedCsvItem, type TCsvOptions } from "./csv-stream";
import { collect, cutAt, failure, piecesOf, utf8 } from "./test-support";
import type { TParseLimits } from "./limits";

const point = (x: number, y: number, props: Record<string, unknown> = {}) => ({
  type: "Feature",
  properties: props,
  geometry: { type: "Point", coordinates: [x, y] },
});
const csv = (text: string, opts: TCsvOptions = {}, limits?: TParseLimits) => parseCsvStream(cutAt(utf8(text), []), opts, limits);

/** Reads a CSV fully and converts the items by its column types, as the layer writer will. */
async function typed(text: string, opts: TCsvOptions = {}, chunks = cutAt(utf8(text), [])) {
  const stream = parseCsvStream(chunks, opts);
  const items = await collect(stream);
  const types = stream.columnTypes();
  return { kind: stream.kind, columns: stream.columns, types, items: items.map((i) => typedCsvItem(i, types)) };
}

describe("parseCsvStream", () => {
  it("reads points from lon/lat columns found by name, other columns as properties, numbers where every value is one", async () => {
    const r = await typed("id,name,lon,lat\n1,Bern,7.44,46.95\n2,Basel,7.59,47.56\n");
    expect(r.kind).toBe("features");
    expect(r.items).toEqual([point(7.44, 46.95, { id: 1, name: "Bern" }), point(7.59, 47.56, { id: 2, name: "Basel" })]);
    expect((await typed("E,N,v\n8,47,a\n", { lonColumn: "E", latColumn: "N" })).items).toEqual([point(8, 47, { v: "a" })]);
    for (const [lon, lat] of [
      ["Longitude", "LATITUDE"],
      ["lng", "y"],
      [" x ", "lat"],
      ["long", "latitude"],
    ])
      expect((await typed(`${lon},${lat}\n1,2\n`)).items).toEqual([point(1, 2)]);
  });

  it("reads a table when there are no position columns; empty cells are null, '007' is 7 in a numeric column", async () => {
    const r = await typed("country,count,code\nCH,3,007\nFR,,x\n");
    expect(r).toEqual({
      kind: "table",
      columns: ["country", "count", "code"],
      types: { country: "string", count: "number", code: "string" },
      items: [
        { country: "CH", count: 3, code: "007" },
        { country: "FR", count: null, code: "x" },
      ],
    });
    expect((await typed("a,b\n,1e3\n,-0.5\n")).types).toEqual({ a: "string", b: "number" }); // an all-empty column is text
    expect((await typed("a\n")).items).toEqual([]); // a header alone: an empty table
  });

  it("makes a column text when it holds an integer a double cannot hold, so that it is stored as written", async () => {
    const r = await typed("geonameid,name,lon,lat,n\n1234567890123456789,a,1,2,9007199254740991\n2,b,3,4,1e18\n");
    expect(r.types).toEqual({ geonameid: "string", name: "string", lon: "number", lat: "number", n: "number" });
    expect(r.items).toEqual([
      point(1, 2, { geonameid: "1234567890123456789", name: "a", n: 9007199254740991 }),
      point(3, 4, { geonameid: "2", name: "b", n: 1e18 }),
    ]);
    expect((await typed("id\n-9007199254740992\n")).types).toEqual({ id: "string" });
  });

  it("yields raw strings and decides the column types only at the end", async () => {
    const stream = csv("a,b\n1,x\n2,3\n");
    const items = [];
    for await (const item of stream) {
      items.push(item);
      expect(() => stream.columnTypes()).toThrow(/once every row/);
    }
    expect(items).toEqual([
      { a: "1", b: "x" },
      { a: "2", b: "3" },
    ]);
    expect(stream.columnTypes()).toEqual({ a: "number", b: "string" });
    expect(csvValue("", "number")).toBeNull();
    expect(csvValue("1.50", "number")).toBe(1.5);
    expect(csvValue("1.50", "string")).toBe("1.50");
  });

  it("skips a BOM, blank lines and CRLF, reads quoted fields, and gives the same rows whatever byte the stream is cut at", async () => {
    const text = '\uFEFFname,lon,lat,note\r\n"Zürich, ZH",8.54,47.37,"line one\nline ""two"""\r\n\r\n東京,139.69,35.69,🗺️\r\n';
    const want = [point(8.54, 47.37, { name: "Zürich, ZH", note: 'line one\nline "two"' }), point(139.69, 35.69, { name: "東京", note: "🗺️" })];
    expect((await typed(text)).items).toEqual(want);
    const bytes = utf8(text);
    for (let cut = 0; cut <= bytes.byteLength; cut++) expect((await typed(text, {}, cutAt(bytes, [cut]))).items).toEqual(want);
    expect((await typed(text, {}, piecesOf(bytes, 1))).items).toEqual(want);
  });

  it("reads numbers in decimal notation only: 0x10, Infinity or padded text is neither a coordinate nor a number", async () => {
    const err = await failure(parseCsvStream(piecesOf(utf8("name,lon,lat\nA,0x10,46\nB,7,Infinity\n"), 7)));
    expect(err.errors!.map((e) => e.field)).toEqual(["/file/rows/1/lon", "/file/rows/2/lat"]);
    const r = await typed("code,n\n0x10,1\n 7 ,2\n");
    expect(r.types).toEqual({ code: "string", n: "number" });
    expect(r.items).toEqual([
      { code: "0x10", n: 1 },
      { code: " 7 ", n: 2 },
    ]);
  });

  it("keeps a column named __proto__ as a plain property", async () => {
    const r = await typed("__proto__,lon,lat\n5,1,2\n");
    expect(Object.keys(r.items[0]!.properties as object)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(r.items[0]!.properties)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(r.items[0]!.properties, "__proto__")!.value).toBe(5);
  });

  it("names faulty rows and columns with the whole-file import's messages", async () => {
    const err = await failure(csv("name,lon,lat\nA,7,46\nB,east,46\nC,7,95\nD,,\n"));
    expect(err.detail).toBe("The CSV file has 4 problems.");
    expect(err.errors).toEqual([
      { field: "/file/rows/2/lon", code: "invalid_position", message: 'Row 2, column "lon": "east" is not a longitude (-180..180).' },
      { field: "/file/rows/3/lat", code: "invalid_position", message: 'Row 3, column "lat": "95" is not a latitude (-90..90).' },
      { field: "/file/rows/4/lon", code: "invalid_position", message: 'Row 4, column "lon": "" is not a longitude (-180..180).' },
      { field: "/file/rows/4/lat", code: "invalid_position", message: 'Row 4, column "lat": "" is not a latitude (-90..90).' },
    ]);
    const slash = await failure(csv("a/b,lat\n200,1\n", { lonColumn: "a/b", latColumn: "lat" }));
    expect(slash.errors![0]!.field).toBe("/file/rows/1/a~1b"); // RFC 6901 escaping
  });

  it("names a NUL character by row (from 1) and column, in tables and points alike; in the header it stops the reading", async () => {
    const table = await failure(csv("id,name\n1,ok\n2,a\u0000b\n"));
    expect(table.errors).toEqual([
      {
        field: "/file/rows/2/name",
        code: "nul_character",
        message: 'Row 2, column "name": the text contains a NUL character (\\u0000), which cannot be stored; remove it.',
      },
    ]);
    const points = await failure(csv("name,lon,lat\na\u0000b,1,2\n"));
    expect(points.errors!.map((e) => e.field)).toEqual(["/file/rows/1/name"]);
    const header = await failure(csv("na\u0000me,lon,lat\nA,1,2\n"));
    expect(header.errors).toEqual([
      {
        field: "/file",
        code: "nul_character",
        message: 'Column 1 of the header ("na\\u0000me") contains a NUL character (\\u0000), which cannot be stored; rename it.',
      },
    ]);
  });

  it("refuses bytes that are not UTF-8 (a Latin-1 file), naming the line, wherever the stream is cut", async () => {
    const latin1 = Buffer.concat([Buffer.from("name,lon,lat\nBern,7.4,46.9\nZ"), Buffer.from([0xfc]), Buffer.from("rich,8.5,47.4\n")]);
    for (let cut = 0; cut <= latin1.length; cut++)
      expect((await failure(parseCsvStream(cutAt(latin1, [cut])))).errors, `cut ${cut}`).toEqual([
        {
          field: "/file",
          code: "invalid_encoding",
          message: "The CSV file is not UTF-8 text: the byte 0xFC at line 3 (byte offset 28) is not UTF-8; save it as UTF-8.",
        },
      ]);
    const utf16 = Buffer.from("\uFEFFlon,lat\n1,2\n", "utf16le");
    expect((await failure(parseCsvStream(cutAt(utf16, [])))).errors![0]!.message).toBe(
      "The CSV file is not UTF-8 text: it starts with a UTF-16 byte order mark; save it as UTF-8.",
    );
  });

  it("refuses a bad header or column choice before reading rows", async () => {
    const cases: [string, TCsvOptions, object][] = [
      ["a,b\n1,2\n", { lonColumn: "lon", latColumn: "b" }, { field: "/lonColumn", code: "unknown_column", message: 'No column "lon" in the header (a, b).' }],
      ["a,b\n1,2\n", { lonColumn: "a" }, { field: "/latColumn", code: "required", message: "Name both the longitude and the latitude column." }],
      ["a,b\n1,2\n", { latColumn: "b" }, { field: "/lonColumn", code: "required", message: "Name both the longitude and the latitude column." }],
      ["a,b,a\n1,2,3\n", {}, { field: "/file", code: "duplicate_column", message: 'Column "a" appears twice in the header.' }],
      ["\n\n", {}, { field: "/file", code: "invalid_csv", message: "The CSV file has no header row." }],
    ];
    for (const [text, opts, error] of cases) expect((await failure(csv(text, opts))).errors, text).toEqual([error]);
  });

  it("says so when the header has no comma but semicolons or tabs, instead of reading one column or failing on the next line", async () => {
    expect((await failure(csv("name;lon;lat\nA;1,5;2\n"))).errors).toEqual([
      {
        field: "/file",
        code: "invalid_csv",
        message:
          'The header has no comma but semicolons ("name;lon;lat"): the file looks separated by ";". CSV uploads are separated by commas (RFC 4180); save the file with commas.',
      },
    ]);
    expect((await failure(csv("name\tlon\tlat\nA\t1\t2\n"))).errors![0]!.message).toMatch(
      /^The header has no comma but tabs \("name\\tlon\\tlat"\): the file looks separated by tabs\./,
    );
    // One column is fine otherwise, and so are semicolons inside a header of several columns.
    expect((await typed("name\nA\n")).items).toEqual([{ name: "A" }]);
    expect((await typed('"a;b",c\n1,2\n')).columns).toEqual(["a;b", "c"]);
  });

  it("refuses text csv-parse cannot read, naming the line", async () => {
    const short = await failure(csv("a,b\n1,2\n3\n"));
    expect(short.errors).toHaveLength(1);
    expect(short.errors![0]).toMatchObject({ field: "/file", code: "invalid_csv" });
    expect(short.errors![0]!.message).toMatch(/^The CSV file cannot be read \(line 3\): Invalid Record Length/);
    const quote = await failure(csv('a,b\n1,"2\n'));
    expect(quote.errors![0]!.message).toMatch(/^The CSV file cannot be read.*Quote Not Closed/);
  });

  it("lists 20 problems and stops reading after the 21st", async () => {
    let pulled = 0;
    const bytes = utf8("lon,lat\n" + "500,1\n".repeat(100_000));
    async function* counted() {
      for await (const c of piecesOf(bytes, 1024)) {
        pulled++;
        yield c;
      }
    }
    const err = await failure(parseCsvStream(counted()));
    expect(err.errors).toEqual(
      Array.from({ length: 20 }, (_, i) => ({
        field: `/file/rows/${i + 1}/lon`,
        code: "invalid_position",
        message: `Row ${i + 1}, column "lon": "500" is not a longitude (-180..180).`,
      })),
    );
    expect(err.detail).toBe("The CSV file has more than 20 problems (first 20 listed).");
    expect(pulled).toBeLessThan(100); // of 586
  });

  it("stops past maxItems, past maxItemBytes in one row, and at the first chunk past maxBytes", async () => {
    expect(await collect(csv("lon,lat\n1,1\n2,2\n", {}, { maxBytes: 1e6, maxItems: 2 }))).toHaveLength(2);
    expect((await failure(csv("lon,lat\n1,1\n2,2\n3,3\n", {}, { maxBytes: 1e6, maxItems: 2 }))).errors).toEqual([
      { field: "/file", code: "too_many_rows", message: "At most 2 rows are accepted." },
    ]);
    const long = await failure(
      parseCsvStream(piecesOf(utf8(`a,b\n1,2\n3,${"x".repeat(5000)}\n`), 100), {}, { maxBytes: 1e6, maxItems: 10, maxItemBytes: 1024 }),
    );
    expect(long.errors).toEqual([{ field: "/file", code: "too_large", message: "A row of the CSV file (line 3) is larger than 1 KiB." }]);

    let pulled = 0;
    async function* endless() {
      yield utf8("a,b\n");
      for (;;) {
        pulled++;
        yield utf8("1,2\n".repeat(100));
      }
    }
    const big = await failure(parseCsvStream(endless(), {}, { maxBytes: 4000, maxItems: 1e9 }));
    expect(big.code).toBe("payload_too_large");
    expect(pulled).toBe(10); // 4 + 10 * 400 bytes passes 4000
    expect((await failure(csv(""))).errors).toEqual([{ field: "/file", code: "required", message: "The file is empty." }]);
  });
});
