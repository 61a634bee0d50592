import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { encodeCsv } from "./csv";
import { edgeTable } from "./test-fixtures";

const text = (body: Uint8Array) => new TextDecoder("utf-8", { fatal: true }).decode(body);

describe("encodeCsv", () => {
  it("writes RFC 4180 CSV that csv-parse reads back", async () => {
    const table = edgeTable();
    const { body, rowCount } = await encodeCsv(table);
    expect(rowCount).toBe(4);
    const records = parse(text(body), { relax_column_count: false }) as string[][];
    expect(records[0]).toEqual(table.columns);
    expect(records.slice(1)).toEqual([
      ["1", "plain", "2147483648", "1", "true", "", "1", "東京"],
      ["2", 'has "quotes", commas', "9007199254740991", "0.25", "false", "", "x", "🚀 space "],
      ["3", "multi\nline\r\nvalue", "-1099511627776", "-7", "", "", "true", ""],
      ["", "", "", "", "", "", "", ""],
    ]);
  });

  it("uses CRLF record endings, quotes only where needed, no BOM", async () => {
    const { body } = await encodeCsv({
      kind: "rows",
      columns: ["a", "b c"],
      rows: [
        { a: "x,y", "b c": 'say "hi"' },
        { a: "cr\ronly", "b c": " lead" },
        { a: null, "b c": 1.5 },
      ],
    });
    expect(text(body)).toBe('a,b c\r\n"x,y","say ""hi"""\r\n"cr\ronly", lead\r\n,1.5\r\n');
  });

  it("writes objects as JSON and reads missing keys as empty", async () => {
    const { body } = await encodeCsv({ kind: "rows", columns: ["o", "missing"], rows: [{ o: { k: [1, "v"] } }] });
    expect(parse(text(body))).toEqual([
      ["o", "missing"],
      ['{"k":[1,"v"]}', ""],
    ]);
  });

  it("reads only a row's own fields, whatever the column is called", async () => {
    const { body } = await encodeCsv({
      kind: "rows",
      columns: ["constructor", "toString", 'q"uote', "line\u2028sep"],
      rows: [{}, { constructor: 1, 'q"uote': "a", "line\u2028sep": "b" }, Object.create({ toString: "inherited" }) as Record<string, unknown>],
    });
    expect(text(body)).toBe('constructor,toString,"q""uote",line\u2028sep\r\n,,,\r\n1,,a,b\r\n,,,\r\n');
  });

  it("writes the header only for an empty table and nothing without columns", async () => {
    expect(text((await encodeCsv({ kind: "rows", columns: ["a", "b"], rows: [] })).body)).toBe("a,b\r\n");
    const none = await encodeCsv({ kind: "rows", columns: [], rows: [] });
    expect(none.body.length).toBe(0);
    expect(none.rowCount).toBe(0);
  });

  it("stays consistent across slices (50,000 rows)", async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => ({ i, s: i % 7 === 0 ? `q"${i}` : `v${i}` }));
    const records = parse(text((await encodeCsv({ kind: "rows", columns: ["i", "s"], rows })).body)) as string[][];
    expect(records).toHaveLength(50_001);
    expect(records[49_001]).toEqual(["49000", 'q"49000']);
  });
});
