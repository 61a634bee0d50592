/** The writers read a lazy table (lib/steps/dataset.ts `lazyTable`) one row at a time, with the same bytes as its plain form. */
import { describe, expect, it } from "vitest";
import { lazyTable, type TRow, type TTable } from "@/lib/steps/dataset";
import { encodeCsv } from "./csv";
import { encodeResult } from "./encode-result";
import { encodeParquet } from "./parquet";
import { edgeTable } from "./test-fixtures";
import { readParquet } from "./test-support";

/** The plain table and a lazy one with the same rows, and how often the lazy one made a row. */
function both(): { plain: TTable; lazy: TTable; made: () => number } {
  const plain = edgeTable();
  let made = 0;
  const lazy = lazyTable(plain.columns, {
    count: plain.rows.length,
    rowAt: (i) => {
      made++;
      return { ...plain.rows[i] } as TRow;
    },
  });
  return { plain, lazy, made: () => made };
}

describe("lazy tables in the writers", () => {
  it("CSV: the same bytes, each row made once and none kept", async () => {
    const { plain, lazy, made } = both();
    const a = await encodeCsv(plain);
    const b = await encodeCsv(lazy);
    expect(Buffer.from(b.body).equals(Buffer.from(a.body))).toBe(true);
    expect(b.rowCount).toBe(plain.rows.length);
    // once per row by the writer; making `rows` would have doubled it
    expect(made()).toBe(plain.rows.length);
  });

  it("Parquet: the same rows and types, each row made once per pass (types, then values)", async () => {
    const { plain, lazy, made } = both();
    const a = await readParquet((await encodeParquet(plain)).body);
    const b = await readParquet((await encodeParquet(lazy)).body);
    expect(b.rows).toEqual(a.rows);
    expect(b.metadata.schema).toEqual(a.metadata.schema);
    expect(made()).toBe(2 * plain.rows.length);
  });

  it("encodeResult, with the columns derived from the flow, keeps a lazy table lazy", async () => {
    const { plain, lazy, made } = both();
    const columns = { fields: plain.columns.map((name) => ({ name, type: "any" as const })), open: false };
    const a = await encodeResult({ kind: "table", data: plain, columns }, "csv");
    const b = await encodeResult({ kind: "table", data: lazy, columns }, "csv");
    expect(Buffer.from(b.body).equals(Buffer.from(a.body))).toBe(true);
    expect(made()).toBe(plain.rows.length);
  });

  it("a lazy table's rows, when a step asks for them, are made once and kept", () => {
    const { plain, lazy, made } = both();
    expect(lazy.rows).toEqual(plain.rows);
    expect(lazy.rows).toBe(lazy.rows);
    expect(made()).toBe(plain.rows.length);
    // a copy or JSON sees a plain table
    expect(JSON.parse(JSON.stringify(lazy))).toEqual(JSON.parse(JSON.stringify(plain)));
    expect({ ...lazy }).toEqual(plain);
  });
});
