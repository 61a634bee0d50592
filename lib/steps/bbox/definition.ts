/**
 * The `bbox` step: the bounding box of each feature, or (`mode: "all"`) of all features, as a
 * Polygon (Turf `bbox` + `bboxPolygon`). Boxes are in plain longitude/latitude: a feature
 * split at the antimeridian gets a box from -180 to 180. A point's box is a degenerate
 * polygon whose corners are the point.
 * Browser-safe definition (lib/steps/define-step.ts; runner: step.ts); `docs` below makes its row of docs/flow-format.md.
 */
import { NO_COLUMNS } from "@/lib/steps/columns";
import { z } from "zod";
import { ACCEPTS, defineStep } from "@/lib/steps/define-step";
import { ACCEPTS_PARAM, ZRef } from "@/lib/steps/options";

export const bbox = defineStep({
  type: "bbox",
  label: "Bounding box",
  summary: "Replace geometry by its bounding box (Turf bbox), per feature or one box around all features",
  category: "spatial",
  options: { source: ZRef, mode: z.enum(["each", "all"]).default("each") },
  params: { mode: ACCEPTS_PARAM.string },
  inputs: [{ key: "source", accepts: ACCEPTS.features }],
  output: "features",
  columns: (step, [src]) => (step.mode === "all" ? NO_COLUMNS : src),
  docs: {
    options: "`mode` *param*: `each` (default) | `all`",
    semantics:
      "A Polygon `[[w,s],[e,s],[e,n],[w,n],[w,s]]` in plain lon/lat (Turf `bbox`, `bboxPolygon`). `each`: per feature, properties kept, null geometry stays null. `all`: one feature without properties around every non-null geometry; none when there is none",
  },
});
