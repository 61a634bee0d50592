/** Writers with a result's declared columns: the same names and types on every run, also empty ones. */
import { describe, expect, it } from "vitest";
import type { TColumns } from "@/lib/steps/columns";
import { encodeResult } from "./encode-result";
import { readParquet, schemaTypes } from "./test-support";
import { tableFromRows } from "@/lib/steps/dataset";

const columns: TColumns = {
  fields: [
    { name: "id", type: "any" },
    { name: "n", type: "integer" },
    { name: "km", type: "number" },
    { name: "label", type: "string" },
    { name: "ok", type: "boolean" },
  ],
  open: false,
};
const FIXED = { n: "INT64", km: "DOUBLE", label: "BYTE_ARRAY/UTF8", ok: "BOOLEAN" };

async function tableTypes(rows: Record<string, unknown>[], dataColumns: string[]) {
  const { body } = await encodeResult({ kind: "table", data: tableFromRows(dataColumns, rows), columns }, "parquet");
  const { metadata } = await readParquet(body);
  return { names: metadata.schema.slice(1).map((e) => e.name), types: schemaTypes(metadata) };
}

describe("declared result columns", () => {
  it("a table keeps names and types with rows, without rows and with only nulls", async () => {
    const full = await tableTypes([{ id: "a", n: 1, km: 2, label: "x", ok: true, extra: 5 }], ["id", "n", "km", "label", "ok", "extra"]);
    const empty = await tableTypes([], []);
    const nulls = await tableTypes([{ id: null, n: null, km: null, label: null, ok: null }], ["id", "n", "km", "label", "ok"]);
    expect(full.names).toEqual(["id", "n", "km", "label", "ok", "extra"]);
    expect(full.types).toMatchObject({ ...FIXED, extra: "INT64" });
    for (const t of [empty, nulls]) {
      expect(t.names).toEqual(["id", "n", "km", "label", "ok"]);
      expect(t.types).toMatchObject(FIXED);
    }
    // whole numbers in a number column stay DOUBLE; large integers stay INT64
    expect((await tableTypes([{ km: 3, n: 2 ** 40 }], ["km", "n"])).types).toMatchObject({ km: "DOUBLE", n: "INT64" });
  });

  it("a layer keeps its property columns in GeoParquet when it has no features", async () => {
    const empty = await encodeResult({ kind: "layer", data: { kind: "features", features: [] }, columns }, "geoparquet");
    const { metadata } = await readParquet(empty.body);
    expect(metadata.schema.slice(1).map((e) => e.name)).toEqual(["id", "n", "km", "label", "ok", "geometry"]);
    expect(schemaTypes(metadata)).toMatchObject(FIXED);
  });

  it("CSV has the declared header when empty", async () => {
    const { body } = await encodeResult({ kind: "table", data: tableFromRows([], []), columns }, "csv");
    expect(Buffer.from(body).toString()).toBe("id,n,km,label,ok\r\n");
  });

  it("a value that does not fit its declared type is written as text rather than lost", async () => {
    const { body } = await encodeResult({ kind: "table", data: tableFromRows(["n"], [{ n: "7" }, { n: 1.5 }]), columns }, "parquet");
    const { metadata, rows } = await readParquet(body);
    expect(schemaTypes(metadata).n).toBe("BYTE_ARRAY/UTF8");
    expect(rows.map((r) => r.n)).toEqual(["7", "1.5"]);
  });
});
