import { describe, expect, it } from "vitest";
import { canonicalJson, fingerprint, runRequestFingerprint } from "./canonical-json";

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

describe("runRequestFingerprint", () => {
  it("leaves out the top-level wait_seconds and nothing else", () => {
    const body = { inputs: { places: { rows: [{ wait_seconds: 1 }] } }, parameters: { top: 3 } };
    expect(runRequestFingerprint({ ...body, wait_seconds: 30 })).toBe(runRequestFingerprint(body));
    expect(runRequestFingerprint({ ...body, wait_seconds: 0 })).toBe(runRequestFingerprint({ ...body, wait_seconds: 60 }));
    // The same as the plain fingerprint of the body without it (stored records stay comparable).
    expect(runRequestFingerprint({ ...body, wait_seconds: 30 })).toBe(fingerprint(body));
    // A wait_seconds inside the caller's data is data: it changes the request.
    expect(runRequestFingerprint({ ...body, inputs: { places: { rows: [{ wait_seconds: 2 }] } } })).not.toBe(runRequestFingerprint(body));
    expect(runRequestFingerprint({ ...body, parameters: { top: 4 }, wait_seconds: 30 })).not.toBe(runRequestFingerprint(body));
  });
});
