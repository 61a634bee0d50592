/** The `spatial_filter` step's browser-safe definition (lib/steps/define-step.ts); its runner is step.ts. */
import { z } from "zod";
import { ZRef, ACCEPTS_PARAM } from "@/lib/steps/options";
import { defineStep, featureInputs } from "@/lib/steps/define-step";

export const spatialFilter = defineStep({
  type: "spatial_filter",
  label: "Spatial filter",
  summary: "Keep features that intersect / are within / contain / are disjoint from any feature of `by` (an omitted optional `by` keeps all)",
  category: "spatial",
  options: { source: ZRef, by: ZRef, predicate: z.enum(["intersects", "within", "contains", "disjoint"]).default("intersects") },
  params: { predicate: ACCEPTS_PARAM.string },
  inputs: featureInputs("source", "by"),
  output: "features",
  docs: {
    options: "`predicate` *param*: `intersects` (default) | `within` | `contains` | `disjoint`",
    semantics:
      "Keep features that intersect / are within / contain / are disjoint from any feature of `by`. Boundaries: `intersects` includes them, `within` and `contains` exclude them (a point on an edge is not within). Null geometry never hits (so it is kept only by `disjoint`). An omitted optional `by` keeps everything",
  },
});
