import { describe, expect, it } from "vitest";
import { ZParameter } from "@/lib/engine/flow-document";
import { parameterHint } from "./parameter-hint";

const hint = (p: unknown) => parameterHint(ZParameter.parse(p));

describe("parameterHint", () => {
  it("names an exclusive lower bound (nearby-cities' radius_km: in (0, 500])", () => {
    expect(hint({ name: "radius_km", type: "number", exclusiveMinimum: 0, maximum: 500, default: 25 })).toBe("number, > 0, ≤ 500, default 25");
  });

  it("names inclusive bounds, an exclusive upper bound, and required", () => {
    expect(hint({ name: "top", type: "integer", minimum: 1, maximum: 250, default: 10 })).toBe("integer, ≥ 1, ≤ 250, default 10");
    expect(hint({ name: "share", type: "number", minimum: 0, exclusiveMaximum: 1, required: true })).toBe("number, ≥ 0, < 1, required");
  });

  it("names a string's length limit, and nothing more for booleans and choices", () => {
    expect(hint({ name: "label", type: "string", max_length: 40 })).toBe("string, at most 40 characters");
    expect(hint({ name: "flag", type: "boolean", default: false })).toBe("boolean, default false");
    expect(hint({ name: "mode", type: "enum", values: ["a", "b"], default: "a" })).toBe("enum, default a");
  });
});
