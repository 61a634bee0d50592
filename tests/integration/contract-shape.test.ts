/**
 * Contract: caller data keeps its shape. An area must be a valid polygon: rings with no area,
 * too few distinct positions or that cross themselves get 422 naming the ring, and start
 * nothing (issue: a zero-area triangle used to run and return nothing).
 */
import { describe, expect, it } from "vitest";
import { apiPath, http, runCount } from "./helpers";
import { expectProblem } from "./contract-helpers";

const RUNS = `${apiPath("cities-in-area")}/runs`;
const area = (...rings: number[][][]) => ({ inputs: { cities: { layer_id: "world-cities" }, area: { area: { type: "Polygon", coordinates: rings } } } });

describe("an area must be a valid polygon", () => {
  it("answers 422 naming the ring, and starts no run", async () => {
    const outer = [
      [8, 47],
      [9, 47],
      [9, 48],
      [8, 48],
      [8, 47],
    ];
    const cases: [string, object, string, string][] = [
      [
        "zero-area triangle",
        area([
          [8.4, 47.3],
          [8.7, 47.3],
          [8.55, 47.3],
          [8.4, 47.3],
        ]),
        "/inputs/area/area/coordinates/0",
        "zero_area",
      ],
      [
        "too few distinct positions",
        area([
          [8, 47],
          [9, 47],
          [9, 47],
          [8, 47],
        ]),
        "/inputs/area/area/coordinates/0",
        "too_few_positions",
      ],
      [
        "bow tie",
        area([
          [8, 47],
          [9, 48],
          [9, 47],
          [8, 48],
          [8, 47],
        ]),
        "/inputs/area/area/coordinates/0",
        "self_intersection",
      ],
      [
        "flat hole",
        area(outer, [
          [8.2, 47.2],
          [8.4, 47.4],
          [8.6, 47.6],
          [8.2, 47.2],
        ]),
        "/inputs/area/area/coordinates/1",
        "zero_area",
      ],
    ];
    const before = await runCount();
    for (const [what, body, field, code] of cases) {
      const r = await http("POST", RUNS, { body });
      const problem = expectProblem(r, 422, "validation_failed");
      expect(problem.errors, what).toContainEqual(expect.objectContaining({ field, code }));
    }
    expect(await runCount()).toBe(before);
  });
});
