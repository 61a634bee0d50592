/** The `spatial_join` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { aggregationFields, appendFields } from "@/lib/steps/columns";
import { z } from "zod";
import { ZRef, ZAggregation } from "@/lib/steps/options";
import { defineStep, featureInputs } from "@/lib/steps/define-step";

export const spatialJoin = defineStep({
  type: "spatial_join",
  label: "Spatial join",
  summary: "Every polygon with `aggregations` over the points inside it (boundary included)",
  category: "spatial",
  options: { points: ZRef, polygons: ZRef, aggregations: z.array(ZAggregation).min(1) },
  columnOptions: { "aggregations.field": "points" },
  inputs: featureInputs("points", "polygons"),
  output: "features",
  columns: (step, [points, polygons]) => appendFields(polygons, aggregationFields(points, step.aggregations)),
  docs: {
    options: "`aggregations` (≥ 1)",
    semantics:
      "Every polygon feature with the aggregations over the points inside it (boundary included, holes excluded; a point counts once per polygon feature; MultiPoints count each point, other geometries their centroid)",
  },
});
