/**
 * The worked examples of docs/flow-format.md (between the step-examples markers), from the
 * golden fixtures: for each step type, each fixture of its folder (lib/steps/<type>/fixtures.ts)
 * as the step a flow writes (with an `id`), what its sources hold, and a link to its expected
 * output (lib/steps/<type>/fixtures/<name>.expected.geojson or .json), a file a map or a JSON
 * viewer opens. lib/steps/registry.test.ts checks those files against the runners; `npm run
 * docs:steps` writes this section and scripts/step-examples.test.ts keeps the page in step.
 */
import path from "node:path";
import { STEP_DEFINITIONS } from "@/lib/steps/registry";
import { expectedFile, fixturesOf } from "@/lib/steps/test-helpers";
import type { TDataset } from "@/lib/steps/dataset";

export const STEP_EXAMPLES_BEGIN = "<!-- step-examples:begin (generated from lib/steps/*/fixtures.ts by npm run docs:steps; do not edit by hand) -->";
export const STEP_EXAMPLES_END = "<!-- step-examples:end -->";

const DOCS_DIR = path.resolve(import.meta.dirname, "../docs");

/** "3 features", "2 rows", "an area", "omitted". */
function holds(d: TDataset | null): string {
  if (d === null) return "omitted";
  if (d.kind === "features") return `${d.features.length} feature${d.features.length === 1 ? "" : "s"}`;
  if (d.kind === "rows") return `${d.length} row${d.length === 1 ? "" : "s"}`;
  return "an area";
}

/** The Markdown of the section (see module doc). */
export async function stepExamplesMarkdown(): Promise<string> {
  const parts: string[] = [];
  for (const d of STEP_DEFINITIONS) {
    for (const fx of await fixturesOf(d.type)) {
      const sources = Object.entries(fx.inputs).map(([name, data]) => `\`${name}\`: ${holds(data)}`);
      const params = Object.entries(fx.opts?.params ?? {}).map(([name, v]) => `\`${name}\` = ${JSON.stringify(v)}`);
      const link = path.relative(DOCS_DIR, expectedFile(d.type, fx)).split(path.sep).join("/");
      parts.push(
        [
          `**\`${d.type}\`, ${fx.name}** (sources ${sources.join(", ")}${params.length ? `; parameters ${params.join(", ")}` : ""}; output: [${path.basename(link)}](${link}))`,
          "",
          "```json",
          JSON.stringify({ id: "s", ...fx.step }),
          "```",
        ].join("\n"),
      );
    }
  }
  return parts.join("\n\n");
}
