import { describe, expect, it } from "vitest";
import { canonicalJson, fingerprint } from "./canonical-json";

describe("canonicalJson", () => {
  it("sorts keys recursively and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[3,{"y":2,"z":1}]},"b":1}');
  });
  it("gives equal fingerprints for reordered bodies and different ones otherwise", () => {
    expect(fingerprint({ inputs: { a: 1 }, parameters: { x: 2 } })).toBe(fingerprint({ parameters: { x: 2 }, inputs: { a: 1 } }));
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }));
    expect(fingerprint({ a: [1, 2] })).not.toBe(fingerprint({ a: [2, 1] }));
  });
  it("keeps unicode and escapes as JSON does", () => {
    expect(canonicalJson({ "ä b": 'Zürich "x"' })).toBe('{"ä b":"Zürich \\"x\\""}');
  });
});
