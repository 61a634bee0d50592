/**
 * A GeoJSON FeatureCollection (RFC 7946 §3.3) read as it arrives: `parseGeoJsonStream(chunks,
 * limits)` yields each feature as soon as its closing brace is read, checked by
 * lib/geo/validate-geojson.ts's rules (`checkFeature`), with `properties` defaulting to `{}`.
 *
 * Parsing is @streamparser/json's tokenizer and token parser, selecting `$.features.*` with
 * `keepStack: false`: a feature is dropped from the parser once emitted, and every other
 * member of the top-level object (`type`, `bbox`, foreign members) is checked for syntax but
 * never kept, so memory follows the largest single feature, not the file. An integer literal a
 * double cannot hold is kept as its decimal text in `properties` (wide-integers.ts). The envelope is
 * followed token by token beside it, so that a file that is not a FeatureCollection is refused
 * as soon as that shows, by its first token (a top-level array: `/file` "Expected a
 * FeatureCollection object, got array") or by its `type` member (a bare Feature: `/file/type`
 * "Expected type \"FeatureCollection\", got \"Feature\""), and `features` missing or not an
 * array is named (`/file/features`), all with the messages of `validateFeatureCollection`.
 * A `crs` member (GeoJSON 2008) is accepted when null or naming longitude/latitude on WGS 84
 * (OGC:CRS84, EPSG:4326, crs.ts), else refused at `/file/crs` (`unsupported_crs`), stopping
 * the reading: RFC 7946 GeoJSON is WGS 84 longitude/latitude, and other coordinates would be
 * read as degrees.
 *
 * @throws AppError `validation_failed`: `/file` `invalid_json` (not JSON, with the byte offset
 *   near the fault); the envelope faults above; `/file/features/<i>/...` per faulty feature
 *   ("Feature <i>: ...", up to 20 listed, reading stops after the 21st);
 *   `/file/features` `too_many_features` past `limits.maxItems`; `/file/features/<i>`
 *   `too_large` for a feature (or `/file/<member>` for another member) past `maxItemBytes`.
 *   AppError `payload_too_large` past `limits.maxBytes`; `/file` `required` for no bytes.
 */
import { Tokenizer, TokenParser, TokenType } from "@streamparser/json";
import type { ParsedElementInfo } from "@streamparser/json";
import { AppError, jsonPointer } from "@/lib/errors";
import type { TFeature } from "@/lib/engine/types";
import { geoJsonCrsFault } from "./crs";
import { checkFeature } from "./feature";
import { countedChunks, DEFAULT_PARSE_LIMITS, formatBytes, type TParseLimits } from "./limits";
import { fileFault, ProblemList } from "./problems";
import { jsonNumber, settleWideIntegers } from "./wide-integers";

/** How `validateFeatureCollection` names a JSON value's kind ("got array"), from its first token. */
const describeToken = (token: TokenType, value: unknown) =>
  token === TokenType.LEFT_BRACE
    ? "object"
    : token === TokenType.LEFT_BRACKET
      ? "array"
      : token === TokenType.NUMBER
        ? "number"
        : value === null
          ? "null"
          : typeof value;

/** The tokenizer, with each integer literal a double cannot hold made a `WideInteger` (wide-integers.ts), counted. */
class WideIntegerTokenizer extends Tokenizer {
  /** Wide integer literals read since the count was last reset. */
  wide = 0;

  protected override parseNumber(text: string): number {
    const n = jsonNumber(text);
    if (typeof n === "number") return n;
    this.wide++;
    return n as unknown as number; // settled before anyone reads it as a number (settleWideIntegers)
  }
}

const isValueStart = (t: TokenType) => t !== TokenType.COMMA && t !== TokenType.COLON && t !== TokenType.RIGHT_BRACE && t !== TokenType.RIGHT_BRACKET;

const notJson = (message: string) => fileFault("invalid_json", `The file is not JSON: ${message}`);

/** Yields the valid features of a FeatureCollection streamed as UTF-8 bytes (see module doc). */
export async function* parseGeoJsonStream(chunks: AsyncIterable<Uint8Array>, limits: TParseLimits = DEFAULT_PARSE_LIMITS): AsyncGenerator<TFeature> {
  const maxItemBytes = limits.maxItemBytes ?? DEFAULT_PARSE_LIMITS.maxItemBytes;
  const problems = new ProblemList("The GeoJSON file");
  const tokenizer = new WideIntegerTokenizer();
  const parser = new TokenParser({ paths: ["$.features.*", "$.type", "$.crs"], keepStack: false });
  const ready: TFeature[] = [];
  let count = 0;

  // The envelope, followed token by token: nesting depth, the top-level member whose value
  // is being read, and where the item being read (a feature, or another member's value) began.
  let depth = 0;
  let rootSeen = false;
  let expectKey = false;
  let member: string | undefined;
  let featuresSeen = false;
  let featuresIsArray = false;
  let itemStart = -1;
  let itemDepth = 0;
  let itemName = "";
  let lastOffset = 0;

  const track = (token: TokenType, value: unknown, offset: number) => {
    lastOffset = offset;
    if (depth === 0) {
      if (rootSeen) return; // trailing data after the document: the token parser refuses it
      rootSeen = true;
      if (token !== TokenType.LEFT_BRACE) problems.fail("/file", "invalid_geojson", `Expected a FeatureCollection object, got ${describeToken(token, value)}`);
      depth = 1;
      expectKey = true;
      return;
    }
    if (depth === 1) {
      if (token === TokenType.RIGHT_BRACE) {
        depth = 0;
        return;
      }
      if (token === TokenType.COMMA) {
        expectKey = true;
        return;
      }
      if (token === TokenType.COLON) return;
      if (expectKey) {
        member = String(value);
        expectKey = false;
        return;
      }
      // The value of `member` starts here.
      const container = token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET;
      if (member === "features") {
        featuresSeen = true;
        featuresIsArray = token === TokenType.LEFT_BRACKET;
        if (!featuresIsArray)
          problems.add({ field: "/file/features", code: "invalid_geojson", message: `features must be an array, got ${describeToken(token, value)}` });
      }
      if (container) {
        depth = 2;
        if (!(member === "features" && featuresIsArray)) {
          itemStart = offset;
          itemDepth = 1;
          itemName = `/file${jsonPointer([member ?? ""])}`;
        }
      }
      return;
    }
    // depth >= 2: inside a member's value.
    if (depth === 2 && member === "features" && featuresIsArray && isValueStart(token)) {
      itemStart = offset;
      itemDepth = 2;
      itemName = `/file/features/${count}`;
    }
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) depth++;
    else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) depth--;
    // An item ends when its container closes (at once for a primitive feature).
    if (depth === itemDepth) itemStart = -1;
  };

  tokenizer.onToken = (info) => {
    track(info.token, info.value, info.offset);
    parser.write(info);
  };
  parser.onValue = ({ value, key, parent, stack }: ParsedElementInfo) => {
    if (stack.length === 1) {
      // Not a FeatureCollection: nothing after this can make the file one, so stop here.
      if (key === "type" && value !== "FeatureCollection")
        problems.fail("/file/type", "invalid_geojson", `Expected type "FeatureCollection", got ${JSON.stringify(value)}`);
      if (key === "crs") {
        const fault = geoJsonCrsFault(settleWideIntegers(value));
        if (fault) problems.fail("/file/crs", "unsupported_crs", `The file ${fault}`);
      }
      return;
    }
    if (!Array.isArray(parent) || !featuresIsArray) return; // members of a `features` object: already refused
    const index = count++;
    if (count > limits.maxItems) problems.fail("/file/features", "too_many_features", `At most ${limits.maxItems} features are accepted; the file has more.`);
    if (tokenizer.wide > 0) {
      settleWideIntegers(value);
      tokenizer.wide = 0;
    }
    const feature = checkFeature(value, index, problems, `Feature ${index}`);
    if (feature) ready.push(feature);
  };

  const run = (step: () => void) => {
    try {
      step();
    } catch (e) {
      if (e instanceof AppError) throw e;
      const message = (e as Error).message;
      // The tokenizer's own messages give the absolute position; the token parser's do not.
      throw notJson(/absolute position/.test(message) ? message : `${message} (near byte ${lastOffset})`);
    }
  };

  let consumed = 0;
  for await (const chunk of countedChunks(chunks, limits.maxBytes)) {
    run(() => tokenizer.write(chunk));
    consumed += chunk.byteLength;
    problems.throwIfFull();
    if (itemStart >= 0 && consumed - itemStart > maxItemBytes)
      problems.fail(
        itemName,
        "too_large",
        `${itemName.startsWith("/file/features/") ? `Feature ${count}` : `The member at ${itemName}`} is larger than ${formatBytes(maxItemBytes)}.`,
      );
    yield* ready.splice(0);
  }
  run(() => {
    tokenizer.end();
    if (!rootSeen) throw notJson("the file holds no JSON value");
    if (!parser.isEnded) throw notJson(`it ends in the middle of the document (after byte ${consumed})`);
  });
  if (!featuresSeen) problems.add({ field: "/file/features", code: "invalid_geojson", message: "features must be an array, got undefined" });
  problems.throwIfAny();
  yield* ready;
}
