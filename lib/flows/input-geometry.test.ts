import { describe, expect, it } from "vitest";
import { describeFittingLayers, describeLayer, layerInputFaults, layerMismatch, layersFitting, MAX_LISTED_LAYERS, type TReadableLayer } from "./input-geometry";

const layer = (id: string, kind: TReadableLayer["kind"], geometryTypes: string[], name = id): TReadableLayer => ({
  id,
  name,
  kind,
  geometryTypes,
  itemCount: 1,
});
const cities = layer("world-cities", "features", ["Point"], "World cities");
const countries = layer("world-countries", "features", ["MultiPolygon", "Polygon"], "World countries");
const capitals = layer("world-capitals", "table", [], "World capitals");
const rivers = layer("rivers", "features", ["LineString"], "Rivers");
const older = layer("older", "features", [], "Aaa older upload"); // stored before types were kept
const mixed = layer("mixed", "features", ["Point", "Polygon"], "Mixed");

const countriesInput = { name: "countries", kind: "layer" as const, geometry: "polygon" as const };
const citiesInput = { name: "cities", kind: "layer" as const, geometry: "point" as const };
const anyInput = { name: "things", kind: "layer" as const };
const placesInput = { name: "places", kind: "table" as const };

describe("layerMismatch", () => {
  it("refuses a layer whose geometry types are outside the declared family, naming both", () => {
    // The case: the points of world-cities sent for the countries input.
    expect(layerMismatch(cities, countriesInput)).toEqual({
      field: "/inputs/countries/layer_id",
      code: "wrong_geometry_type",
      message: 'Layer "world-cities" holds Point features; input "countries" needs polygon geometry (Polygon or MultiPolygon).',
    });
    expect(layerMismatch(countries, citiesInput)?.code).toBe("wrong_geometry_type");
    expect(layerMismatch(mixed, citiesInput)?.message).toContain("holds Point, Polygon features");
    expect(layerMismatch(rivers, countriesInput)?.code).toBe("wrong_geometry_type");
  });

  it("accepts every type of the family, any geometry for `any`, and a layer whose types are not known yet", () => {
    expect(layerMismatch(countries, countriesInput)).toBeNull();
    expect(layerMismatch(layer("pts", "features", ["MultiPoint", "Point"]), citiesInput)).toBeNull();
    expect(layerMismatch(layer("l", "features", ["MultiLineString"]), { name: "l", kind: "layer", geometry: "line" })).toBeNull();
    for (const l of [cities, countries, rivers, mixed]) expect(layerMismatch(l, anyInput)).toBeNull();
    expect(layerMismatch(older, countriesInput)).toBeNull();
  });

  it("checks the kind first (a table for a layer input and the reverse)", () => {
    expect(layerMismatch(capitals, citiesInput)?.code).toBe("wrong_layer_kind");
    expect(layerMismatch(cities, placesInput)).toEqual({
      field: "/inputs/places/layer_id",
      code: "wrong_layer_kind",
      message: 'Layer "world-cities" is a feature layer; input "places" needs a table.',
    });
    expect(layerMismatch(capitals, placesInput)).toBeNull();
  });
});

describe("layersFitting", () => {
  const all = [older, capitals, cities, countries, rivers, mixed];
  it("offers the layers of the input's kind and geometry, known types first, then by name", () => {
    expect(layersFitting(all, countriesInput).map((l) => l.id)).toEqual(["world-countries", "older"]);
    expect(layersFitting(all, citiesInput).map((l) => l.id)).toEqual(["world-cities", "older"]);
    expect(layersFitting(all, placesInput).map((l) => l.id)).toEqual(["world-capitals"]);
    expect(layersFitting(all, anyInput).map((l) => l.id)).toEqual(["mixed", "rivers", "world-cities", "world-countries", "older"]);
    expect(layersFitting(all, { name: "area", kind: "area" })).toEqual([]);
  });

  it("does not depend on the order the layers come in", () => {
    expect(layersFitting([...all].reverse(), countriesInput)).toEqual(layersFitting(all, countriesInput));
  });
});

describe("layerInputFaults", () => {
  const inputs = [citiesInput, countriesInput, placesInput];
  it("answers an unreadable id with the readable ids that fit the input", () => {
    const faults = layerInputFaults(inputs, [{ name: "countries", layerId: "cities" }], [cities, countries, capitals], "in this environment");
    expect(faults).toEqual([
      {
        field: "/inputs/countries/layer_id",
        code: "unknown_layer",
        message: 'No layer "cities" is readable in this environment. Readable layers for "countries": world-countries.',
      },
    ]);
  });

  it("says so when no readable layer fits, and lists at most MAX_LISTED_LAYERS ids", () => {
    const [none] = layerInputFaults(inputs, [{ name: "places", layerId: "x" }], [cities], "in this workspace");
    expect(none!.message).toBe('No layer "x" is readable in this workspace. None readable in this workspace fits "places".');
    const many = Array.from({ length: MAX_LISTED_LAYERS + 5 }, (_, i) => layer(`p${String(i).padStart(2, "0")}`, "features", ["Point"]));
    const [listed] = layerInputFaults(inputs, [{ name: "cities", layerId: "x" }], many, "in this environment");
    const ids = /for "cities": (.*)\.$/.exec(listed!.message)![1]!;
    expect(ids).toBe(
      `${many
        .slice(0, MAX_LISTED_LAYERS)
        .map((l) => l.id)
        .join(", ")} and 5 more`,
    );
  });

  it("reports each faulty input once, and nothing for fitting layers", () => {
    const faults = layerInputFaults(
      inputs,
      [
        { name: "cities", layerId: "world-cities" },
        { name: "countries", layerId: "world-cities" },
        { name: "places", layerId: "world-countries" },
      ],
      [cities, countries, capitals],
      "in this environment",
    );
    expect(faults.map((f) => `${f.field} ${f.code}`)).toEqual(["/inputs/countries/layer_id wrong_geometry_type", "/inputs/places/layer_id wrong_layer_kind"]);
  });
});

describe("describeLayer and describeFittingLayers", () => {
  it("say id, geometry types or table, and the item count", () => {
    expect(describeLayer({ ...cities, itemCount: 135_233 })).toBe("world-cities (Point, 135,233 features)");
    expect(describeLayer({ ...countries, itemCount: 241 })).toBe("world-countries (MultiPolygon/Polygon, 241 features)");
    expect(describeLayer({ ...capitals, itemCount: 1 })).toBe("world-capitals (table, 1 row)");
    expect(describeLayer(older)).toBe("older (geometry not recorded, 1 feature)");
    expect(describeFittingLayers([cities, countries, capitals], countriesInput)).toBe("world-countries (MultiPolygon/Polygon, 1 feature)");
    expect(describeFittingLayers([cities], placesInput)).toBeNull();
  });
});
