/**
 * GeoJSON Text Sequences (RFC 8142, on RFC 7464 JSON text sequences) and newline-delimited
 * GeoJSON read as they arrive: `parseGeoJsonSeqStream(chunks, limits)` yields one feature per
 * record, each checked by lib/geo/validate-geojson.ts's rules (`checkFeature`) with
 * `properties` defaulting to `{}`.
 *
 * Framing: a file whose first byte other than whitespace (and a UTF-8 BOM) is RS (0x1E) is a
 * sequence of RS-prefixed records, each a JSON text that may span lines (RFC 7464 §2.2);
 * otherwise every line is a record (newline-delimited GeoJSON, `\n` or `\r\n`). Blank records
 * are skipped. A record is collected as bytes until its delimiter and parsed on its own with
 * `JSON.parse`, so memory follows the longest record, capped by `limits.maxItemBytes`.
 * An integer literal a double cannot hold is kept as its decimal text in `properties`
 * (wide-integers.ts). Records are numbered from 0 in the order of the features they hold: the errors of the
 * third feature are `/file/features/2/...`, "Feature 2: ...", as for a FeatureCollection.
 *
 * @throws AppError `validation_failed`: `/file/features/<i>` `invalid_json` ("Feature <i>
 *   (line <n>) is not JSON: ..."; the line only for newline-delimited files) or
 *   `invalid_encoding` (a byte that is not UTF-8, RFC 3629, in the record), the feature's
 *   faults (up to 20 listed, reading stops after the 21st), `/file/features` `too_many_features`
 *   past `limits.maxItems`, `/file/features/<i>` `too_large` past `maxItemBytes`;
 *   `payload_too_large` past `limits.maxBytes`; `/file` `required` for no bytes.
 */
import { isUtf8 } from "node:buffer";
import type { TFeature } from "@/lib/engine/types";
import { checkFeature } from "./feature";
import { countedChunks, DEFAULT_PARSE_LIMITS, formatBytes, type TParseLimits } from "./limits";
import { ProblemList } from "./problems";
import { firstInvalidUtf8 } from "./utf8";
import { settleWideIntegers, wideIntegerReviver } from "./wide-integers";

const RS = 0x1e;
/** An integer literal of 16 digits or more: a record without one holds no wide integer (2^53 has 16 digits). */
const WIDE_CANDIDATE = /(?<![\d.])\d{16,}(?![\d.eE])/;
const LF = 0x0a;
const BOM = [0xef, 0xbb, 0xbf];
const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/** Yields the valid features of a GeoJSON text sequence or newline-delimited GeoJSON (see module doc). */
export async function* parseGeoJsonSeqStream(chunks: AsyncIterable<Uint8Array>, limits: TParseLimits = DEFAULT_PARSE_LIMITS): AsyncGenerator<TFeature> {
  const maxItemBytes = limits.maxItemBytes ?? DEFAULT_PARSE_LIMITS.maxItemBytes;
  const problems = new ProblemList("The GeoJSON sequence");
  let delimiter: number | undefined; // RS or LF, known at the first byte that is not whitespace
  let parts: Uint8Array[] = [];
  let partBytes = 0;
  let count = 0;
  let line = 1; // newline-delimited: the line the current record is on
  let position = 0; // bytes read before the framing is known
  const ready: TFeature[] = [];

  const finish = () => {
    const bytes = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    parts = [];
    partBytes = 0;
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
    if (text.trim() === "") return;
    const index = count++;
    if (count > limits.maxItems) {
      problems.fail("/file/features", "too_many_features", `At most ${limits.maxItems} features are accepted; the file has more.`);
    }
    const where = delimiter === LF ? ` (line ${line})` : "";
    // toString() above replaced any byte that is not UTF-8 by U+FFFD: refuse the record rather than store "�".
    if (!isUtf8(bytes)) {
      const at = firstInvalidUtf8(bytes);
      const byte = `0x${bytes[at]!.toString(16).toUpperCase().padStart(2, "0")}`;
      problems.add({
        field: `/file/features/${index}`,
        code: "invalid_encoding",
        message: `Feature ${index}${where} is not UTF-8 text: the byte ${byte} at byte offset ${at} of the record is not UTF-8; save the file as UTF-8.`,
      });
      return;
    }
    let value: unknown;
    try {
      // The reviver (wide-integers.ts) slows JSON.parse several times: only for records with a literal of 16 digits or more.
      value = WIDE_CANDIDATE.test(text) ? settleWideIntegers(JSON.parse(text, wideIntegerReviver)) : JSON.parse(text);
    } catch (e) {
      problems.add({ field: `/file/features/${index}`, code: "invalid_json", message: `Feature ${index}${where} is not JSON: ${(e as Error).message}` });
      return;
    }
    const feature = checkFeature(value, index, problems, `Feature ${index}`);
    if (feature) ready.push(feature);
  };

  const append = (piece: Uint8Array) => {
    if (piece.byteLength === 0) return;
    parts.push(piece);
    partBytes += piece.byteLength;
    if (partBytes > maxItemBytes) {
      problems.fail(`/file/features/${count}`, "too_large", `Feature ${count} is larger than ${formatBytes(maxItemBytes)}.`);
    }
  };

  for await (const raw of countedChunks(chunks, limits.maxBytes)) {
    let chunk = raw;
    if (delimiter === undefined) {
      // Skip a UTF-8 BOM and leading whitespace, then the first byte tells the framing.
      let i = 0;
      for (; i < chunk.byteLength && ((position + i < 3 && chunk[i] === BOM[position + i]) || isSpace(chunk[i]!)); i++) if (chunk[i] === LF) line++;
      position += chunk.byteLength;
      if (i === chunk.byteLength) continue;
      delimiter = chunk[i] === RS ? RS : LF;
      chunk = chunk.subarray(i);
    }
    for (let start = 0; ;) {
      const at = chunk.indexOf(delimiter!, start);
      if (at < 0) {
        append(chunk.subarray(start));
        break;
      }
      append(chunk.subarray(start, at));
      finish();
      if (delimiter === LF) line++;
      start = at + 1;
    }
    problems.throwIfFull();
    yield* ready.splice(0);
  }
  if (partBytes > 0) finish();
  problems.throwIfAny();
  yield* ready;
}
