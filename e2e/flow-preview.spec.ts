/**
 * Run the flow while building it (features/design/flow-run/): on the new-flow page, before
 * anything is saved, the designer runs the example document on a workspace layer and a pasted
 * area and opens two steps' outputs (a layer: map and table; a table: typed columns), then a
 * document whose step fails shows that step's error. axe in both themes; no sideways scrolling
 * at 390 px. Screenshots land in .data/screenshots/design-flow-preview-*.png.
 */
import { expect, test, type Page } from "@playwright/test";
import { CITIES_IN_AREA } from "../lib/demo/flows";
import { closeDb, screenshotBothThemes, setEditorText } from "./design-helpers";
import { expectAccessible } from "./support/a11y";
import { withDemoUsageLock } from "./support/usage-lock";
import { DEMO, STORAGE, ZURICH } from "./support/env";

test.describe.configure({ mode: "serial" });

const NEW_FLOW = `/design/${DEMO.organization}/${DEMO.workspace}/flows/new`;

let page: Page;

test.beforeAll(async ({ browser }) => {
  page = await (await browser.newContext({ storageState: STORAGE.designer })).newPage();
});
test.afterAll(async () => {
  await page.context().close();
  await closeDb();
});

/** Runs the preview to `state`. A preview is an ETL run of the demo workspace: not inside another spec's usage window. */
async function runPreview(state: "completed" | "failed") {
  const panel = page.getByTestId("flow-run-panel");
  await withDemoUsageLock(async () => {
    await panel.getByRole("button", { name: "Run", exact: true }).click();
    await expect(panel.getByTestId("flow-run-state")).toHaveText(state, { timeout: 120_000 });
  });
}

test("runs an unsaved flow and shows two steps' outputs: a layer on a map with its rows, a table with typed columns", async () => {
  await page.goto(NEW_FLOW);
  const panel = page.getByTestId("flow-run-panel");
  await expect(panel.getByRole("heading", { name: "Run the flow" })).toBeVisible();
  await expect(panel.getByText("Run the flow to see what each step yields.")).toBeVisible();
  // The cities input takes a workspace layer (one that fits is chosen already); the area is pasted.
  await expect(panel.getByLabel("Layer for cities")).not.toHaveValue("");
  await panel.getByLabel("Layer for cities").selectOption("world-cities");
  await panel.getByLabel("Source of area").selectOption("paste");
  await panel.getByLabel(/Polygon \(GeoJSON geometry or feature\) for area/).fill(JSON.stringify(ZURICH));
  await panel.getByLabel("min_population").fill("10000");
  await runPreview("completed");
  await expect(panel.getByTestId("flow-run-progress")).toHaveText(`${CITIES_IN_AREA.steps.length} of ${CITIES_IN_AREA.steps.length} steps done`);

  // The last step is shown first: the one-row summary table, its columns typed.
  const output = panel.getByTestId("step-output");
  await expect(output.getByRole("heading", { name: "Output of totals" })).toBeVisible();
  await expect(output.getByTestId("step-count")).toHaveText("1 row");
  const summary = output.getByRole("table");
  await expect(summary.getByRole("columnheader", { name: /city_count\s*integer/ })).toBeVisible();
  await expect(summary.getByRole("columnheader", { name: /total_population/ })).toBeVisible();
  const cityCount = Number(await summary.getByRole("row").nth(1).getByRole("cell").first().textContent());
  expect(cityCount).toBeGreaterThan(0);

  // Another step from the picker: the cities inside the area, on a map and as rows.
  await page.getByLabel("Step to show").selectOption("fields");
  await expect(output.getByRole("heading", { name: "Output of fields" })).toBeVisible();
  await expect(output.getByTestId("step-count")).toHaveText(new RegExp(`^${cityCount} features?`));
  await expect(output.getByRole("region", { name: /Map of the output of step fields/ })).toBeVisible();
  await expect(output.getByRole("columnheader", { name: /population\s*integer/ })).toBeVisible();
  await expect(output.getByRole("columnheader", { name: /name\s*string/ })).toBeVisible();
  await screenshotBothThemes(page, "flow-preview-layer", panel);

  // The picker is a plain select: the keyboard moves to another step.
  await page.getByLabel("Step to show").focus();
  await page.keyboard.press("Home");
  await expect(output.getByRole("heading", { name: "Output of big" })).toBeVisible();
  await expectAccessible(page, "flow preview (light)");

  // 390 px wide: no sideways scrolling of the page.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(panel).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: ".data/screenshots/design-flow-preview-390.png", fullPage: false, animations: "disabled" });
  await page.setViewportSize({ width: 1280, height: 900 });
});

test("a step that fails is named, and shows its error", async () => {
  const failing = {
    inputs: [
      { name: "lines", kind: "layer" },
      { name: "zone", kind: "area" },
    ],
    steps: [
      { id: "all_lines", type: "filter", source: "lines", where: true },
      { id: "containing", type: "spatial_filter", source: "all_lines", by: "zone", predicate: "contains" },
    ],
    results: [{ key: "out", kind: "layer", from: "containing" }],
  };
  const line = {
    type: "FeatureCollection",
    features: [
      {
        type: "Feature",
        properties: {},
        geometry: {
          type: "LineString",
          coordinates: [
            [8.45, 47.32],
            [8.6, 47.4],
          ],
        },
      },
    ],
  };
  await setEditorText(page, JSON.stringify(failing, null, 2));
  const panel = page.getByTestId("flow-run-panel");
  await expect(panel.getByTestId("input-lines")).toBeVisible();
  await panel.getByLabel("Source of lines").selectOption("paste");
  await panel.getByLabel(/GeoJSON FeatureCollection for lines/).fill(JSON.stringify(line));
  await panel.getByLabel("Source of zone").selectOption("paste");
  await panel.getByLabel(/Polygon \(GeoJSON geometry or feature\) for zone/).fill(JSON.stringify(ZURICH));
  await runPreview("failed");
  await expect(panel.getByTestId("flow-run-error")).toContainText('Step "containing" (spatial_filter) failed');
  await expect(page.getByLabel("Step to show")).toHaveValue("containing");
  await expect(panel.getByTestId("step-error")).toContainText("containing");
  await screenshotBothThemes(page, "flow-preview-failed", panel);
});

test("the preview route refuses an invalid document with 422 naming the field", async () => {
  const res = await page.request.post(`/api/design/${DEMO.organization}/${DEMO.workspace}/flow-previews`, {
    data: { document: { ...CITIES_IN_AREA, steps: [{ ...CITIES_IN_AREA.steps[0], source: "nowhere" }, ...CITIES_IN_AREA.steps.slice(1)] }, inputs: {} },
  });
  expect(res.status()).toBe(422);
  const problem = await res.json();
  expect(problem.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: "/document/steps/0/source", code: "unknown_reference" })]));
});
