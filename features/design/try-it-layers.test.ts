import { describe, expect, it } from "vitest";
import { chosenUnreadable, layerChoice, unreadableIn, type TTryItLayer } from "./try-it-layers";

const layer = (id: string, name: string, kind: TTryItLayer["kind"], geometryTypes: string[], environments: string[]): TTryItLayer => ({
  id,
  name,
  kind,
  geometryTypes,
  itemCount: 1,
  environments,
});
// The demo workspace after a designer uploaded "stores" (points, readable nowhere yet): the case.
const LAYERS = [
  layer("stores", "Stores", "features", ["Point"], []),
  layer("world-capitals", "World capitals", "table", [], ["production"]),
  layer("world-cities", "World cities", "features", ["Point"], ["production"]),
  layer("world-countries", "World countries", "features", ["MultiPolygon", "Polygon"], ["production"]),
];
const cities = { name: "cities", kind: "layer" as const, geometry: "point" as const };
const countries = { name: "countries", kind: "layer" as const, geometry: "polygon" as const };
const places = { name: "places", kind: "table" as const };

describe("layerChoice", () => {
  it("offers the layers that fit, and picks one the curl call's environment can read", () => {
    expect(layerChoice(LAYERS, cities, "production")).toEqual({ options: [LAYERS[0], LAYERS[2]], preferred: "world-cities" });
    expect(layerChoice(LAYERS, countries, "production")).toEqual({ options: [LAYERS[3]], preferred: "world-countries" });
    expect(layerChoice(LAYERS, places, "production").preferred).toBe("world-capitals");
  });

  it("falls back to the first that fits when the environment reads none, and to null when none fits", () => {
    expect(layerChoice(LAYERS, cities, "staging").preferred).toBe("stores");
    expect(layerChoice(LAYERS.slice(0, 2), countries, "production")).toEqual({ options: [], preferred: null });
  });
});

describe("unreadableIn", () => {
  it("names the layers that fit an input but the environment cannot read", () => {
    expect(unreadableIn(LAYERS, [cities, countries], "production").map((l) => l.id)).toEqual(["stores"]);
    expect(unreadableIn(LAYERS, [cities, countries], "staging").map((l) => l.id)).toEqual(["stores", "world-cities", "world-countries"]);
    expect(unreadableIn(LAYERS, [places], "production")).toEqual([]);
  });
});

describe("chosenUnreadable", () => {
  it("names each chosen layer the environment cannot read once, in input order; ignores other sources", () => {
    expect(chosenUnreadable(LAYERS, ["world-cities", "world-countries"], "production")).toEqual([]);
    expect(chosenUnreadable(LAYERS, ["stores", null, "stores"], "production").map((l) => l.id)).toEqual(["stores"]);
    expect(chosenUnreadable(LAYERS, ["world-countries", "stores"], "staging").map((l) => l.id)).toEqual(["world-countries", "stores"]);
    expect(chosenUnreadable(LAYERS, ["no-such-layer"], "production")).toEqual([]);
  });
});
