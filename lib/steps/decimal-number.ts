/**
 * The one reading of a number from text (a CSV cell, numeric text in caller rows or GeoJSON
 * properties): plain decimal notation only, as a JSON number is written (RFC 8259 section 6)
 * but also with a leading `+`, leading zeros, or a bare fraction (`.5`, `5.`), as spreadsheets
 * export them. `Number()` reads far more, and each of these is refused here: hexadecimal,
 * octal and binary literals (`"0x10"` is 16 to `Number()`), `"Infinity"` and `"NaN"`,
 * whitespace around the digits, digit separators (`"1_000"`), and the empty string (0 to
 * `Number()`). The value must also be finite: `"1e400"` is refused.
 */

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The number `text` spells in decimal notation (see module comment), or null. */
export function parseDecimalNumber(text: string): number | null {
  if (!DECIMAL.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}
