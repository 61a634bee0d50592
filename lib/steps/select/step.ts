/** The runner of the `select` step; its definition (options, sources, output, docs) is in definition.ts. */
import { asItems, pick, specAs, mapItems } from "@/lib/steps/items";
import { SAME_BOXES } from "@/lib/steps/extent";
import { defineRunner } from "@/lib/steps/define-step";
import { select } from "@/lib/steps/select/definition";

export const selectRunner = defineRunner(select, {
  ...SAME_BOXES,
  batch: {
    source: "source",
    start: async (step, ctx) => {
      return (ds) =>
        mapItems(
          asItems(ds),
          ctx,
          (p) => pick(p, step.fields),
          () => step.fields.map(specAs),
        );
    },
  },
});
