import { describe, expect, it } from "vitest";
import { jsonPositions, locate } from "@/features/design/json-positions";

describe("jsonPositions", () => {
  const text = `{\n  "inputs": [{ "name": "a/b", "kind": "layer" }],\n  "steps": [],\n  "n": -1.5e3\n}`;
  const pos = jsonPositions(text);
  const at = (p: string) => text.slice(pos.get(p)!.from, pos.get(p)!.to);

  it("maps every value to its text by JSON Pointer (RFC 6901 escaping)", () => {
    expect(at("/inputs/0/name")).toBe('"a/b"');
    expect(at("/inputs/0/kind")).toBe('"layer"');
    expect(at("/steps")).toBe("[]");
    expect(at("/n")).toBe("-1.5e3");
    expect(JSON.parse(at("/inputs/0"))).toEqual({ name: "a/b", kind: "layer" });
  });

  it("falls back to the nearest ancestor for a pointer that has no value", () => {
    const span = locate(pos, "/inputs/0/optional", text.length);
    expect(text.slice(span.from, span.to)).toBe('{ "name": "a/b", "kind": "layer" }');
  });

  it("keeps what it mapped before malformed text", () => {
    const broken = jsonPositions(`{"a": 1, "b": [tru`);
    expect(broken.get("/a")).toEqual({ from: 6, to: 7 });
  });
});
