/** The runner of the `select` step; its definition (options, sources, output, docs) is in definition.ts. */
import { asItems, pick, pickColumns, specAs, mapItems } from "@/lib/steps/items";
import { pointFeatures, pointRowsOf } from "@/lib/steps/point-columns";
import { SAME_BOXES } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { select } from "@/lib/steps/select/definition";

export const selectRunner = defineRunner(select, {
  ...SAME_BOXES,
  batch: {
    source: "source",
    start: async (step, ctx) => {
      return async (ds) => {
        // Held by column: its columns picked, nothing per feature.
        const view = pointRowsOf(ds);
        const props = view && pickColumns(view.cols.props, step.fields);
        if (view && props) return pointFeatures({ ...view.cols, props }, view.rows);
        return mapItems(
          asItems(ds),
          ctx,
          (p) => pick(p, step.fields),
          () => step.fields.map(specAs),
        );
      };
    },
  },
});
