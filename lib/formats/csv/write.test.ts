import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { encodeCsv } from "./write";
import { scalarToText } from "../column-types";
import { edgeTable } from "../test-fixtures";
import { tableFromRows } from "@/lib/steps/dataset";

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
    const { body } = await encodeCsv(
      tableFromRows(
        ["a", "b c"],
        [
          { a: "x,y", "b c": 'say "hi"' },
          { a: "cr\ronly", "b c": " lead" },
          { a: null, "b c": 1.5 },
        ],
      ),
    );
    expect(text(body)).toBe('a,b c\r\n"x,y","say ""hi"""\r\n"cr\ronly", lead\r\n,1.5\r\n');
  });

  it("writes objects as JSON and reads missing keys as empty", async () => {
    const { body } = await encodeCsv(tableFromRows(["o", "missing"], [{ o: { k: [1, "v"] } }]));
    expect(parse(text(body))).toEqual([
      ["o", "missing"],
      ['{"k":[1,"v"]}', ""],
    ]);
  });

  it("reads only a row's own fields, whatever the column is called", async () => {
    const { body } = await encodeCsv(
      tableFromRows(
        ["constructor", "toString", 'q"uote', "line\u2028sep"],
        [{}, { constructor: 1, 'q"uote': "a", "line\u2028sep": "b" }, Object.create({ toString: "inherited" }) as Record<string, unknown>],
      ),
    );
    expect(text(body)).toBe('constructor,toString,"q""uote",line\u2028sep\r\n,,,\r\n1,,a,b\r\n,,,\r\n');
  });

  it("reads a field inherited from a row's own prototype as empty, plain rows or not", async () => {
    const inherits = Object.assign(Object.create({ a: "inherited", b: "inherited" }) as Record<string, unknown>, { b: "own" });
    const { body } = await encodeCsv(tableFromRows(["a", "b", "valueOf"], [inherits, { a: 1 }, Object.assign(Object.create(null), { a: 2, valueOf: 3 })]));
    expect(text(body)).toBe("a,b,valueOf\r\n,own,\r\n1,,\r\n2,,3\r\n");
  });

  it("writes every value as String()/scalarToText would, quoted where RFC 4180 needs it (random tables, chunk boundaries included)", async () => {
    // The text must be that of a reference written from the module's rules, whatever the values.
    const reference = (columns: string[], rows: Record<string, unknown>[]) => {
      const q = (t: string) => (/[",\r\n]/.test(t) ? `"${t.replace(/"/g, '""')}"` : t);
      const f = (v: unknown) => (typeof v === "number" ? String(v) : q(scalarToText(v) ?? ""));
      return [columns.map(q).join(","), ...rows.map((r) => columns.map((c) => f(Object.hasOwn(r, c) ? r[c] : undefined)).join(","))].join("\r\n") + "\r\n";
    };
    const value = fc.oneof(
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
      fc.constantFrom(0, -0, 2 ** 53 - 1, -(2 ** 53) + 1, 2 ** 53, 1e21, 1e-7, NaN, Infinity, -Infinity, 10, 100, 999, 1000),
      fc.double(),
      fc.string({ unit: "grapheme" }),
      fc.string({ unit: "binary" }),
      fc.constantFrom("a,b", 'q"', "cr\r", "lf\n", "back\\slash", "tab\t", "~", null, undefined, true, false),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.dictionary(fc.constantFrom("a", "b", "c d"), value), { maxLength: 40 }), async (rows) => {
        const columns = ["a", "b", "c d"];
        const { body } = await encodeCsv(tableFromRows(columns, rows));
        expect(Buffer.from(body).toString("utf8")).toBe(reference(columns, rows));
      }),
      { numRuns: 300 },
    );
    // Past one chunk (~1 MiB): records are never split across chunks, and nothing is lost.
    const big = Array.from({ length: 60_000 }, (_, i) => ({ a: i * 37, b: `név ${i}`, "c d": i / 7 }));
    const chunks: Uint8Array[] = [];
    await encodeCsv(tableFromRows(["a", "b", "c d"], big), { sink: (c) => void chunks.push(c) });
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks.slice(0, -1)) expect(Buffer.from(c.subarray(-2)).toString()).toBe("\r\n");
    expect(Buffer.concat(chunks).toString("utf8")).toBe(reference(["a", "b", "c d"], big));
  });

  it("writes the header only for an empty table and nothing without columns", async () => {
    expect(text((await encodeCsv(tableFromRows(["a", "b"], []))).body)).toBe("a,b\r\n");
    const none = await encodeCsv(tableFromRows([], []));
    expect(none.body.length).toBe(0);
    expect(none.rowCount).toBe(0);
  });

  it("stays consistent across slices (50,000 rows)", async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => ({ i, s: i % 7 === 0 ? `q"${i}` : `v${i}` }));
    const records = parse(text((await encodeCsv(tableFromRows(["i", "s"], rows))).body)) as string[][];
    expect(records).toHaveLength(50_001);
    expect(records[49_001]).toEqual(["49000", 'q"49000']);
  });
});
