import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { aiToolCollisions, assertAiToolCompatible } from "@/lib/flows/ai-tool-collisions";

const flow = (inputs: string[], parameters: string[]) => ({
  inputs: inputs.map((name) => ({ name, kind: "layer" as const, optional: false })),
  parameters: parameters.map((name) => ({ name, type: "integer" as const, required: false })),
});

describe("aiToolCollisions", () => {
  it("accepts distinct names", () => {
    expect(aiToolCollisions(flow(["cities", "area"], ["min_population"]))).toEqual([]);
    expect(() => assertAiToolCompatible(flow(["cities"], ["top"]))).not.toThrow();
  });

  it("names an input and a parameter that share a name, by pointer", () => {
    const c = aiToolCollisions(flow(["cities", "area"], ["top", "area"]));
    expect(c).toHaveLength(1);
    expect(c[0]).toMatchObject({ name: "area", fields: ["/inputs/1/name", "/parameters/1/name"] });
    expect(c[0].message).toContain("an input and a parameter");
  });

  it("refuses the tool's own argument names", () => {
    const c = aiToolCollisions(flow(["formats"], ["wait_seconds"]));
    expect(c.map((x) => x.name).sort()).toEqual(["formats", "wait_seconds"]);
  });

  it("throws validation_failed listing every field", () => {
    try {
      assertAiToolCompatible(flow(["area"], ["area"]));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      const e = err as AppError;
      expect(e.code).toBe("validation_failed");
      expect(e.detail).toContain('"area"');
      expect(e.errors?.map((x) => x.field)).toEqual(["/inputs/0/name", "/parameters/0/name"]);
    }
  });
});
