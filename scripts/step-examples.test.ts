import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { STEP_EXAMPLES_BEGIN, STEP_EXAMPLES_END, stepExamplesMarkdown } from "./step-examples";

describe("the worked examples of docs/flow-format.md", () => {
  it("are generated from the golden fixtures (npm run docs:steps), each linking an expected output that exists", async () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, "../docs/flow-format.md"), "utf8");
    const section = doc.slice(doc.indexOf(STEP_EXAMPLES_BEGIN) + STEP_EXAMPLES_BEGIN.length, doc.indexOf(STEP_EXAMPLES_END)).trim();
    const generated = await stepExamplesMarkdown();
    expect(section, "run npm run docs:steps").toBe(generated);
    const links = [...generated.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThanOrEqual(24);
    for (const l of links) expect(fs.existsSync(path.resolve(import.meta.dirname, "../docs", l)), l).toBe(true);
  });
});
