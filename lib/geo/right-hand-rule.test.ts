import { booleanClockwise } from "@turf/turf";
import type { MultiPolygon, Polygon, Position } from "geojson";
import { describe, expect, it } from "vitest";
import { rightHandRule } from "./right-hand-rule";

const square = (x: number, y: number, size: number): Position[] => [
  [x, y],
  [x + size, y],
  [x + size, y + size],
  [x, y + size],
  [x, y],
];
const ccw = square(0, 0, 10); // counterclockwise as written
const cw = ccw.slice().reverse();
const holeCw = square(2, 2, 2).slice().reverse();

function rings(g: Polygon | MultiPolygon): { exterior: Position[][]; holes: Position[][] } {
  const polys = g.type === "Polygon" ? [g.coordinates] : g.coordinates;
  return { exterior: polys.map((p) => p[0]!), holes: polys.flatMap((p) => p.slice(1)) };
}

describe("rightHandRule", () => {
  it("turns exterior rings counterclockwise and holes clockwise", () => {
    const wrong: MultiPolygon = { type: "MultiPolygon", coordinates: [[cw, holeCw.slice().reverse()], [square(20, 20, 1).reverse()]] };
    const fixed = rightHandRule(wrong);
    const { exterior, holes } = rings(fixed);
    expect(exterior.every((r) => !booleanClockwise(r))).toBe(true);
    expect(holes.every((r) => booleanClockwise(r))).toBe(true);
    // Same positions, only their order changed.
    expect(fixed.coordinates[0]![0]!.slice().sort()).toEqual(cw.slice().sort());
  });

  it("never modifies its input and returns a conforming geometry as it is", () => {
    const ok: Polygon = { type: "Polygon", coordinates: [ccw, holeCw] };
    const frozen = structuredClone(ok);
    expect(rightHandRule(ok)).toBe(ok);
    const wrong: Polygon = { type: "Polygon", coordinates: [cw, holeCw] };
    const before = structuredClone(wrong);
    const fixed = rightHandRule(wrong);
    expect(wrong).toEqual(before);
    expect(ok).toEqual(frozen);
    expect(fixed.coordinates[1]).toBe(wrong.coordinates[1]); // the conforming hole is shared, not copied
  });

  it("leaves points, lines and null alone and handles collections member by member", () => {
    const line = { type: "LineString" as const, coordinates: cw };
    expect(rightHandRule(line)).toBe(line);
    expect(rightHandRule(null)).toBeNull();
    const gc = rightHandRule({ type: "GeometryCollection", geometries: [line, { type: "Polygon", coordinates: [cw] }] });
    expect(booleanClockwise((gc.geometries[1] as Polygon).coordinates[0]!)).toBe(false);
  });
});
