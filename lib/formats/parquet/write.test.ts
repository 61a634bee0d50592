import { describe, expect, it } from "vitest";
import { EncodeError } from "../errors";
import { encodeParquet } from "./write";
import { edgeTable } from "../test-fixtures";
import { readParquet, schemaTypes } from "../test-support";
import { tableFromRows } from "@/lib/steps/dataset";

describe("encodeParquet", () => {
  it("writes inferred column types that hyparquet reads back with the same values", async () => {
    const table = edgeTable();
    const { body, rowCount } = await encodeParquet(table);
    expect(rowCount).toBe(4);
    expect(Buffer.from(body.subarray(0, 4)).toString()).toBe("PAR1");
    const { metadata, rows } = await readParquet(body);
    expect(metadata.schema.slice(1).map((e) => e.name)).toEqual(table.columns);
    expect(schemaTypes(metadata)).toEqual({
      id: "INT64",
      label: "BYTE_ARRAY/UTF8",
      "big int": "INT64",
      ratio: "DOUBLE",
      ok: "BOOLEAN",
      empty: "BYTE_ARRAY/UTF8",
      mixed: "BYTE_ARRAY/UTF8",
      "ünï cödé": "BYTE_ARRAY/UTF8",
    });
    for (const element of metadata.schema.slice(1)) expect(element.repetition_type).toBe("OPTIONAL");
    expect(rows).toEqual([
      { id: 1n, label: "plain", "big int": 2n ** 31n, ratio: 1, ok: true, empty: null, mixed: "1", "ünï cödé": "東京" },
      {
        id: 2n,
        label: 'has "quotes", commas',
        "big int": 9007199254740991n,
        ratio: 0.25,
        ok: false,
        empty: null,
        mixed: "x",
        "ünï cödé": "🚀 space ",
      },
      { id: 3n, label: "multi\nline\r\nvalue", "big int": -(2n ** 40n), ratio: -7, ok: null, empty: null, mixed: "true", "ünï cödé": null },
      { id: null, label: null, "big int": null, ratio: null, ok: null, empty: null, mixed: null, "ünï cödé": null },
    ]);
  });

  it("keeps integers beyond 2^53 exact in INT64 and falls back to DOUBLE beyond int64", async () => {
    const { body } = await encodeParquet(
      tableFromRows(
        ["exact", "huge", "bigints"],
        [
          { exact: 2 ** 60, huge: 2 ** 64, bigints: 2n ** 62n },
          { exact: -(2 ** 63), huge: 1, bigints: -5n },
        ],
      ),
    );
    const { metadata, rows } = await readParquet(body);
    expect(schemaTypes(metadata)).toEqual({ exact: "INT64", huge: "DOUBLE", bigints: "INT64" });
    expect(rows).toEqual([
      { exact: 2n ** 60n, huge: 2 ** 64, bigints: 2n ** 62n },
      { exact: -(2n ** 63n), huge: 1, bigints: -5n },
    ]);
  });

  it("writes DOUBLE for mixed integer/fractional numbers including NaN and Infinity", async () => {
    const { body } = await encodeParquet(tableFromRows(["n"], [{ n: 1 }, { n: 2.5 }, { n: NaN }, { n: -Infinity }, { n: null }]));
    const { metadata, rows } = await readParquet(body);
    expect(schemaTypes(metadata)).toEqual({ n: "DOUBLE" });
    expect(rows.map((r) => r.n)).toEqual([1, 2.5, NaN, -Infinity, null]);
  });

  it("writes an empty table with its schema and zero rows", async () => {
    const { body, rowCount } = await encodeParquet(tableFromRows(["a", "b"], []));
    expect(rowCount).toBe(0);
    const { metadata, rows } = await readParquet(body);
    expect(metadata.num_rows).toBe(0n);
    expect(metadata.schema.slice(1).map((e) => e.name)).toEqual(["a", "b"]);
    expect(rows).toEqual([]);
  });

  it("splits rows into row groups", async () => {
    const rows = Array.from({ length: 2_500 }, (_, i) => ({ i, s: `row ${i}` }));
    const { body } = await encodeParquet(tableFromRows(["i", "s"], rows), { rowGroupRows: 1_000 });
    const { metadata, rows: back } = await readParquet(body);
    expect(metadata.row_groups.map((g) => g.num_rows)).toEqual([1000n, 1000n, 500n]);
    expect(back).toHaveLength(2_500);
    expect(back[2_499]).toEqual({ i: 2_499n, s: "row 2499" });
  });

  it("writes text cells as UTF-8 across row groups and arena blocks, with min/max in UTF-8 byte order", async () => {
    // Text goes to hyparquet-writer as UTF-8 bytes from Utf8Arena (1 MiB blocks): a cell larger
    // than a block, cells that cross into a new block, supplementary characters, a lone surrogate.
    const big = "x".repeat(1_500_000);
    const texts = ["Zürich", "東京", "😀 grin", "\uFF5E tilde", "lone \ud800 surrogate", "", big, "after the big one", null];
    const rows = Array.from({ length: 3_000 }, (_, i) => ({ i, t: texts[i % texts.length], u: `unique ${i}` }));
    const { body } = await encodeParquet(tableFromRows(["i", "t", "u"], rows), { rowGroupRows: 1_000 });
    const { metadata, rows: back } = await readParquet(body);
    expect(back).toHaveLength(3_000);
    for (const [i, row] of back.entries()) {
      const t = texts[i % texts.length];
      expect(row.t).toBe(t === null ? null : t!.replace("\ud800", "\uFFFD"));
      expect(row.u).toBe(`unique ${i}`);
    }
    // UTF-16 order would put "😀" (D83D ...) before "\uFF5E"; UTF-8 bytes put it after (F0 > EF).
    const stats = metadata.row_groups[0]!.columns[1]!.meta_data!.statistics!;
    const text = (v: unknown) => (typeof v === "string" ? v : Buffer.from(v as Uint8Array).toString("utf8"));
    expect(text(stats.min_value)).toBe("");
    expect(text(stats.max_value).startsWith("😀")).toBe(true);
  });

  it("rejects duplicate column names", async () => {
    await expect(encodeParquet(tableFromRows(["a", "a"], []))).rejects.toThrow(EncodeError);
  });
});
