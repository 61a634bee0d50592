/** Apache Parquet for tables. Writer: ./write.ts. */
import { defineFormat } from "../define-format";

export const parquet = defineFormat({
  name: "parquet",
  kinds: ["table"],
  mediaType: "application/vnd.apache.parquet",
  extension: "parquet",
  binary: true,
  summary: "Apache Parquet, one typed column per table column",
});
