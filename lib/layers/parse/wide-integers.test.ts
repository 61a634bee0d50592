import { describe, expect, it } from "vitest";
import { isWideIntegerText, jsonNumber, settleWideIntegers, WideInteger, wideIntegerReviver } from "./wide-integers";

describe("wide integers", () => {
  it("are integer literals beyond ±(2^53 - 1); fractions, exponents and safe integers are not", () => {
    for (const text of ["9007199254740992", "-9007199254740992", "1234567890123456789", "+99999999999999999999", "00009007199254740993"])
      expect(isWideIntegerText(text), text).toBe(true);
    for (const text of ["9007199254740991", "-9007199254740991", "0000000000000000001", "1e20", "9007199254740993.0", "1.5", "abc", ""])
      expect(isWideIntegerText(text), text).toBe(false);
    expect(jsonNumber("12")).toBe(12);
    expect(jsonNumber("1e400")).toBe(Infinity);
    expect(jsonNumber("9007199254740993")).toEqual(new WideInteger("9007199254740993", 9007199254740992));
  });

  it("are kept as their text in properties, at any depth, and as the double elsewhere in a feature", () => {
    const text =
      '{"type":"Feature","id":12345678901234567890,"bbox":[1,2,1,2],"properties":{"population":9007199254740993,"n":5,"list":[-12345678901234567890,{"x":99999999999999999999}],"f":1e20},"geometry":{"type":"Point","coordinates":[1,2,12345678901234567890]}}';
    const feature = settleWideIntegers(JSON.parse(text, wideIntegerReviver));
    expect(feature).toEqual({
      type: "Feature",
      id: 12345678901234567000,
      bbox: [1, 2, 1, 2],
      properties: { population: "9007199254740993", n: 5, list: ["-12345678901234567890", { x: "99999999999999999999" }], f: 1e20 },
      geometry: { type: "Point", coordinates: [1, 2, 12345678901234567000] },
    });
    expect(settleWideIntegers(new WideInteger("9007199254740993", 9007199254740992))).toBe(9007199254740992);
    // A message quoting one before it settles shows the number it reads as.
    expect(JSON.stringify({ v: new WideInteger("9007199254740993", 9007199254740992) })).toBe('{"v":9007199254740992}');
  });
});
