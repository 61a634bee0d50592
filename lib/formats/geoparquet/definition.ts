/** GeoParquet 1.1 for layers. Writer: ./write.ts. */
import { defineFormat } from "../define-format";

export const geoparquet = defineFormat({
  name: "geoparquet",
  kinds: ["layer"],
  mediaType: "application/vnd.apache.parquet",
  extension: "parquet",
  binary: true,
  summary: "GeoParquet 1.1: Parquet with a WKB geometry column and `geo` metadata",
});
