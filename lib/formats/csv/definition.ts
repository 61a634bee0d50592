/** CSV, the default format of tables. Writer: ./write.ts. */
import { defineFormat } from "../define-format";

export const csv = defineFormat({
  name: "csv",
  kinds: ["table"],
  mediaType: "text/csv; charset=utf-8",
  extension: "csv",
  binary: false,
  summary: "RFC 4180 CSV, UTF-8, CRLF line endings, a header row",
});
