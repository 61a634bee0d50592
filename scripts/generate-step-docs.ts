// npm run docs:steps - writes the step tables of docs/flow-format.md (between the
// step-reference markers) from the step registry (lib/steps/catalogue.ts). A test
// (lib/steps/registry.test.ts) fails while the page and the registry disagree.
import fs from "node:fs";
import path from "node:path";
import { STEP_REFERENCE_BEGIN, STEP_REFERENCE_END, stepReferenceMarkdown } from "@/lib/steps/catalogue";

const file = path.resolve(import.meta.dirname, "../docs/flow-format.md");
const doc = fs.readFileSync(file, "utf8");
const begin = doc.indexOf(STEP_REFERENCE_BEGIN);
const end = doc.indexOf(STEP_REFERENCE_END);
if (begin < 0 || end < begin) throw new Error(`docs/flow-format.md lacks the markers ${STEP_REFERENCE_BEGIN} ... ${STEP_REFERENCE_END}`);
const next = `${doc.slice(0, begin + STEP_REFERENCE_BEGIN.length)}\n${stepReferenceMarkdown()}\n${doc.slice(end)}`;
if (next === doc) console.log("[docs] docs/flow-format.md is up to date");
else {
  fs.writeFileSync(file, next);
  console.log("[docs] wrote the step reference of docs/flow-format.md");
}
