/** Example runs of the `area` step (see `TStepFixture`): every fixture runs in lib/steps/registry.test.ts with frozen inputs. */
import { fs, pt, type TStepFixture } from "@/lib/steps/test-helpers";
import { donut, fiji } from "@/lib/steps/test-fixtures";

export const fixtures: TStepFixture[] = [{ name: "km²", step: { type: "area", source: "d" }, inputs: { d: fs([donut, fiji, pt(0, 0)]) }, kind: "layer" }];
