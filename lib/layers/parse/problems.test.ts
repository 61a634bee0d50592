import { describe, expect, it } from "vitest";
import { ProblemList, fileFault, storableText } from "./problems";

describe("storableText", () => {
  it("writes a NUL and unpaired surrogates as their JSON escapes, and leaves other text (paired surrogates included) as it is", () => {
    expect(storableText("Zürich 🗺️")).toBe("Zürich 🗺️");
    expect(storableText("a\u0000b")).toBe("a\\u0000b");
    expect(storableText("x\uD800y\uDC00")).toBe("x\\ud800y\\udc00");
    expect(storableText("\uDC00\uD83D\uDDFA\uD800")).toBe("\\udc00🗺\\ud800");
  });

  it("is applied to every problem a parser lists or throws, since problems are stored with the import", () => {
    const list = new ProblemList("The file");
    list.add({ field: "/file/rows/1/na\u0000me", code: "nul_character", message: 'Row 1, column "na\u0000me": ...' });
    expect(list.error().errors).toEqual([{ field: "/file/rows/1/na\\u0000me", code: "nul_character", message: 'Row 1, column "na\\u0000me": ...' }]);
    expect(fileFault("unknown_column", 'No column "\uD800".').errors).toEqual([{ field: "/file", code: "unknown_column", message: 'No column "\\ud800".' }]);
  });
});
