// npm run docs:steps - writes the generated sections of docs/flow-format.md: the step tables
// (between the step-reference markers) from the step registry (lib/steps/catalogue.ts), and the
// worked examples (between the step-examples markers) from the golden fixtures
// (scripts/step-examples.ts). Tests (lib/steps/registry.test.ts, scripts/step-examples.test.ts)
// fail while the page and the code disagree.
import fs from "node:fs";
import path from "node:path";
import { STEP_REFERENCE_BEGIN, STEP_REFERENCE_END, stepReferenceMarkdown } from "@/lib/steps/catalogue";
import { STEP_EXAMPLES_BEGIN, STEP_EXAMPLES_END, stepExamplesMarkdown } from "./step-examples";

const file = path.resolve(import.meta.dirname, "../docs/flow-format.md");
const doc = fs.readFileSync(file, "utf8");

/** `text` with what lies between the markers replaced by `body`. */
function between(text: string, beginMarker: string, endMarker: string, body: string): string {
  const begin = text.indexOf(beginMarker);
  const end = text.indexOf(endMarker);
  if (begin < 0 || end < begin) throw new Error(`docs/flow-format.md lacks the markers ${beginMarker} ... ${endMarker}`);
  return `${text.slice(0, begin + beginMarker.length)}\n${body}\n${text.slice(end)}`;
}

let next = between(doc, STEP_REFERENCE_BEGIN, STEP_REFERENCE_END, stepReferenceMarkdown());
next = between(next, STEP_EXAMPLES_BEGIN, STEP_EXAMPLES_END, await stepExamplesMarkdown());
if (next === doc) console.log("[docs] docs/flow-format.md is up to date");
else {
  fs.writeFileSync(file, next);
  console.log("[docs] wrote the generated sections of docs/flow-format.md");
}
