/**
 * UTF-8 (RFC 3629) checked as it streams, for the text formats whose readers would otherwise
 * replace a byte that is not UTF-8 by U+FFFD without a word (csv-parse, `Buffer.toString`): a
 * Latin-1 "é" (0xE9) would be stored as "�". Each chunk is checked with `buffer.isUtf8` (a
 * fatal decoder's check, without making the string), a character cut by a chunk boundary
 * being carried over to the next chunk; only on a fault is the first bad byte looked for, so
 * that the fault names its line (lines counted by LF, which never occurs inside a multi-byte
 * character).
 *
 * Well-formed means Table 3-7 of the Unicode Standard: no overlong forms, no surrogates
 * (U+D800..U+DFFF), nothing past U+10FFFF, no sequence cut short (also at the end of the file).
 */
import { isUtf8 } from "node:buffer";

/** Where the first byte that is not UTF-8 is: its line (from 1), its byte offset in the stream (from 0) and its value. */
export interface TUtf8Fault {
  line: number;
  offset: number;
  /** The byte, or undefined when the stream ends inside a character. */
  byte: number | undefined;
}

const LF = 0x0a;

/** Bytes of the sequence a lead byte starts (0 for a byte no sequence starts with). */
function sequenceLength(b: number): number {
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

/** Index of the first byte of `bytes` that starts no well-formed sequence (Unicode Table 3-7), or -1 when all do. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const n = sequenceLength(b);
    if (n === 0 || i + n > bytes.length) return i;
    // The second byte's range depends on the first (overlongs, surrogates, past U+10FFFF).
    const lo = b === 0xe0 ? 0xa0 : b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xed ? 0x9f : b === 0xf4 ? 0x8f : 0xbf;
    if (n > 1 && (bytes[i + 1]! < lo || bytes[i + 1]! > hi)) return i;
    for (let k = 2; k < n; k++) if (bytes[i + k]! < 0x80 || bytes[i + k]! > 0xbf) return i;
    i += n;
  }
  return -1;
}

/** Where the incomplete character at the end of `bytes` starts (its lead byte), or `bytes.length` when none is cut. */
function cutCharacterStart(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= Math.max(0, bytes.length - 3); i--) {
    const b = bytes[i]!;
    if (b >= 0x80 && b <= 0xbf) continue; // a continuation byte: its lead is further back
    const n = sequenceLength(b);
    return n > bytes.length - i ? i : bytes.length; // a bad lead byte stays, for the check to find
  }
  return bytes.length;
}

function countLf(bytes: Uint8Array, end = bytes.length): number {
  let n = 0;
  for (let i = bytes.indexOf(LF); i >= 0 && i < end; i = bytes.indexOf(LF, i + 1)) n++;
  return n;
}

/**
 * The chunks, passed on unchanged, once checked to be UTF-8 (see module doc); throws
 * `fault(where)` at the first that is not, before passing on the chunk that holds it. The bytes
 * passed on always end at a character boundary: a character cut by a chunk boundary is passed on
 * with the next chunk.
 */
export async function* utf8Checked(chunks: AsyncIterable<Uint8Array>, fault: (where: TUtf8Fault) => Error): AsyncGenerator<Uint8Array> {
  let carried: Uint8Array = new Uint8Array(0);
  let lines = 1;
  let offset = 0; // of the first byte of `data`
  for await (const chunk of chunks) {
    const data = carried.length === 0 ? chunk : Buffer.concat([carried, chunk]);
    const end = cutCharacterStart(data);
    const body = data.subarray(0, end);
    if (!isUtf8(body)) {
      const at = firstInvalidUtf8(body);
      throw fault({ line: lines + countLf(body, at), offset: offset + at, byte: body[at] });
    }
    lines += countLf(body);
    offset += end;
    carried = data.slice(end);
    if (body.length > 0) yield body;
  }
  if (carried.length > 0) throw fault({ line: lines, offset, byte: undefined });
}

/** A fault as messages say it: `the byte 0xE9 at line 3 (byte offset 57)`; a UTF-16 byte order mark is named as such. */
export function describeUtf8Fault(where: TUtf8Fault): string {
  if (where.offset === 0 && (where.byte === 0xff || where.byte === 0xfe)) return "it starts with a UTF-16 byte order mark";
  if (where.byte === undefined) return `it ends inside a character, at line ${where.line}`;
  return `the byte 0x${where.byte.toString(16).toUpperCase().padStart(2, "0")} at line ${where.line} (byte offset ${where.offset}) is not UTF-8`;
}
