import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { AppError } from "@/lib/errors";
import { collect, cutAt } from "./test-support";
import { describeUtf8Fault, firstInvalidUtf8, utf8Checked, type TUtf8Fault } from "./utf8";

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));

/** The bytes `utf8Checked` passes on for `input` cut at `cuts`, or the fault it throws. */
async function check(input: Uint8Array, cuts: number[] = []): Promise<Uint8Array | TUtf8Fault> {
  let where: TUtf8Fault | undefined;
  try {
    return Buffer.concat(await collect(utf8Checked(cutAt(input, cuts), (w) => ((where = w), new AppError("validation_failed", "x")))));
  } catch (e) {
    if (where) return where;
    throw e;
  }
}

/** An independent oracle: the fatal TextDecoder. */
const decodes = (b: Uint8Array) => {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
};

describe("utf8Checked", () => {
  it("passes UTF-8 on unchanged, whatever byte the stream is cut at (characters of 2, 3 and 4 bytes cut included)", async () => {
    const text = bytes("\uFEFFname\nZürich,東京,🗺️\r\nend");
    for (let a = 0; a <= text.length; a++) for (let b = a; b <= text.length; b += 3) expect(await check(text, [a, b])).toEqual(text);
  });

  it("names the first byte that is not UTF-8 by line and offset, wherever the stream is cut", async () => {
    const text = bytes("a,b\nZ", [0xfc], "rich,1\n", [0xe9], "\n");
    for (let cut = 0; cut <= text.length; cut++) expect(await check(text, [cut]), `cut ${cut}`).toEqual({ line: 2, offset: 5, byte: 0xfc });
    expect(await check(bytes("ok\n\u00e9\n", [0xe2, 0x82]))).toEqual({ line: 3, offset: 6, byte: undefined }); // ends inside "€"
    expect(await check(bytes("x", [0xed, 0xa0, 0x80]))).toMatchObject({ offset: 1, byte: 0xed }); // an encoded surrogate
    expect(await check(bytes([0xc0, 0xaf]))).toMatchObject({ offset: 0, byte: 0xc0 }); // an overlong "/"
    expect(await check(bytes([0xf4, 0x90, 0x80, 0x80]))).toMatchObject({ offset: 0, byte: 0xf4 }); // past U+10FFFF
  });

  it("agrees with the fatal TextDecoder on random bytes, and finds the same fault wherever they are cut", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 24 }), fc.array(fc.nat(24), { maxLength: 3 }), async (b, cuts) => {
        const r = await check(
          b,
          [...cuts].sort((x, y) => x - y),
        );
        expect(r instanceof Uint8Array).toBe(decodes(b));
        // The same place whatever the cuts: where the whole buffer's first bad sequence starts.
        if (!(r instanceof Uint8Array)) expect(r.offset).toBe(firstInvalidUtf8(b));
      }),
      { numRuns: 3000, seed: 6 },
    );
  });

  it("says what the fault is", () => {
    expect(describeUtf8Fault({ line: 3, offset: 57, byte: 0xe9 })).toBe("the byte 0xE9 at line 3 (byte offset 57) is not UTF-8");
    expect(describeUtf8Fault({ line: 1, offset: 0, byte: 0xff })).toBe("it starts with a UTF-16 byte order mark");
    expect(describeUtf8Fault({ line: 4, offset: 80, byte: undefined })).toBe("it ends inside a character, at line 4");
  });
});
