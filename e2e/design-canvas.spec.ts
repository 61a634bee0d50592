/**
 * The flow canvas, in Chromium: a designer builds "store catchments" without typing JSON —
 * a table input of store points (lon, lat), the demo cities layer, an optional area that
 * limits the stores, a radius parameter (km); the stores' points, kept inside the area,
 * buffered by the radius; the cities counted and their population summed inside each buffer;
 * a layer result and a summary table result — from the palette (Enter and drag and drop),
 * connections (by dragging a handle, the connect form and the node forms) and the forms
 * generated from the step catalogue; undo/redo, Delete, the live validator's problems on the
 * node; then saves it and compares the stored version with the expected document. axe (no
 * serious or critical finding) in both themes and no sideways scrolling at 390 px.
 * Screenshots: .data/screenshots/design-canvas-*.png (CANVAS_SHOTS_DIR to put them elsewhere).
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { callPublished, chooseApiFlow, closeDb, db, downloadPublished, eventually, grantDemoConsumer } from "./design-helpers";
import { expectAccessible } from "./support/a11y";
import { withDemoUsageLock } from "./support/usage-lock";
import { DEMO, ROOT, STORAGE } from "./support/env";

const DESIGN = `/design/${DEMO.organization}/${DEMO.workspace}`;
const SHOTS = process.env.CANVAS_SHOTS_DIR ?? path.join(ROOT, ".data/screenshots");

const EXPECTED = {
  inputs: [
    {
      name: "stores",
      kind: "table",
      columns: [
        { name: "lon", type: "number", required: true },
        { name: "lat", type: "number", required: true },
      ],
    },
    { name: "cities", kind: "layer", geometry: "point" },
    { name: "limit_area", kind: "area", optional: true },
  ],
  parameters: [{ name: "radius_km", type: "number", default: 10, exclusiveMinimum: 0 }],
  steps: [
    { id: "points", type: "points_from_rows", source: "stores", lon: "lon", lat: "lat" },
    { id: "in_area", type: "spatial_filter", source: "points", by: "limit_area" },
    { id: "buffers", type: "buffer", source: "in_area", distance_km: { param: "radius_km" } },
    {
      id: "counted",
      type: "spatial_join",
      points: "cities",
      polygons: "buffers",
      aggregations: [
        { op: "count", as: "city_count" },
        { op: "sum", field: "population", as: "population" },
      ],
    },
    {
      id: "summary",
      type: "aggregate",
      source: "counted",
      aggregations: [
        { op: "count", as: "stores" },
        { op: "sum", field: "population", as: "population" },
      ],
    },
  ],
  results: [
    { key: "catchments", kind: "layer", from: "counted" },
    { key: "summary", kind: "table", from: "summary" },
  ],
};

test.use({ storageState: STORAGE.designer });
test.afterAll(async () => closeDb());

const inspector = (page: Page) => page.getByTestId("node-inspector");
const node = (page: Page, id: string) => page.getByTestId("flow-canvas").locator(`.react-flow__node[data-id="${id}"]`);

/** Adds a palette entry from the keyboard: search, focus the entry, Enter. */
async function addFromPalette(page: Page, search: string, entry: string) {
  const palette = page.getByTestId("palette");
  await palette.getByRole("searchbox").fill(search);
  const button = palette.locator(`[data-palette="${entry}"]`);
  await button.focus();
  await page.keyboard.press("Enter");
}

/** Renames the selected node through its form. */
async function rename(page: Page, label: string, name: string) {
  await inspector(page).getByLabel(label, { exact: true }).fill(name);
  await expect(inspector(page).getByRole("heading")).toContainText(name);
}

/** Drags from one handle to another with the mouse. */
async function dragHandle(page: Page, from: Locator, to: Locator) {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
  await page.mouse.up();
}

async function selectNode(page: Page, id: string) {
  await node(page, id).click();
  await expect(inspector(page)).toBeVisible();
}

/** WCAG 2.1 relative luminance of an sRGB colour given as [r, g, b] in 0..255. */
function luminance([r, g, b]: number[]): number {
  const lin = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
}
/** WCAG 2.1 contrast ratio of two colours. */
function contrast(a: number[], b: number[]): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

async function checkThemesAnd390(page: Page, name: string) {
  await mkdir(SHOTS, { recursive: true });
  for (const colorScheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
    await page.screenshot({ path: path.join(SHOTS, `design-canvas-${name}-${colorScheme}.png`), fullPage: true, animations: "disabled" });
    await page.getByTestId("flow-canvas").screenshot({ path: path.join(SHOTS, `design-canvas-${name}-graph-${colorScheme}.png`), animations: "disabled" });
    await expectAccessible(page, `canvas ${name} (${colorScheme})`);
    // Nodes follow the theme: dark with light text in the dark theme (not white on white), readable in both.
    const colours = await node(page, "step:counted")
      .locator("> div")
      .evaluate((el) => {
        // Computed colours may be oklch(); a 1-pixel canvas turns any CSS colour into sRGB bytes.
        const ctx = document.createElement("canvas").getContext("2d", { willReadFrequently: true })!;
        const rgb = (css: string) => {
          ctx.clearRect(0, 0, 1, 1);
          ctx.fillStyle = css;
          ctx.fillRect(0, 0, 1, 1);
          return [...ctx.getImageData(0, 0, 1, 1).data].slice(0, 3);
        };
        const st = getComputedStyle(el);
        return { bg: rgb(st.backgroundColor), fg: rgb(st.color) };
      });
    if (colorScheme === "dark") expect(luminance(colours.bg), `node background ${colours.bg}`).toBeLessThan(0.2);
    else expect(luminance(colours.bg), `node background ${colours.bg}`).toBeGreaterThan(0.8);
    expect(contrast(colours.bg, colours.fg)).toBeGreaterThanOrEqual(4.5);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForFunction(() => document.documentElement.clientWidth <= 390);
  await page.screenshot({ path: path.join(SHOTS, `design-canvas-${name}-390.png`), fullPage: true, animations: "disabled" });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect((await page.getByTestId("flow-canvas").boundingBox())!.width).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("builds store catchments on the canvas without typing JSON, and saves it", async ({ page }) => {
  test.setTimeout(300_000);
  const name = `E2E store catchments ${randomBytes(3).toString("hex")}`;
  await page.goto(`${DESIGN}/flows/new`);
  await page.getByLabel("Name").fill(name);
  await expect(page.getByRole("tab", { name: "Canvas" })).toHaveAttribute("aria-selected", "true");
  await expect(node(page, "step:big")).toBeVisible(); // the example
  await page.getByRole("button", { name: "Start empty" }).click();
  await expect(page.getByTestId("flow-canvas").locator(".react-flow__node")).toHaveCount(0);

  // Inputs and the parameter, from the palette with the keyboard (one by drag and drop).
  await addFromPalette(page, "table", "input:table");
  await rename(page, "Input name", "stores");
  for (const [i, col] of ["lon", "lat"].entries()) {
    await inspector(page).getByRole("button", { name: "Add a column" }).click();
    await inspector(page)
      .getByLabel(`Column ${i + 1} name`)
      .fill(col);
    await inspector(page)
      .getByLabel(`Column ${i + 1} type`)
      .selectOption("number");
    await inspector(page)
      .getByRole("group", { name: `Column ${i + 1}` })
      .getByLabel("Required")
      .check();
  }
  await page.getByTestId("palette").getByRole("searchbox").fill("layer");
  await page
    .getByTestId("palette")
    .locator('[data-palette="input:layer"]')
    .dragTo(page.getByTestId("flow-canvas"), { targetPosition: { x: 60, y: 300 } });
  await expect(node(page, "input:layer")).toBeVisible();
  await rename(page, "Input name", "cities");
  await inspector(page).getByLabel("Geometry").selectOption("point");
  await addFromPalette(page, "area", "input:area");
  await rename(page, "Input name", "limit_area");
  await inspector(page).getByLabel("Optional (the caller may leave it out)").check();
  await addFromPalette(page, "parameter", "parameter:number");
  await rename(page, "Parameter name", "radius_km");
  await inspector(page).getByLabel("Default (optional)").fill("10");
  await inspector(page).getByLabel("More than (optional)").fill("0");

  // Points from the stores' rows: the source by the node's form, the columns offered from the input's declaration.
  await addFromPalette(page, "points", "step:points_from_rows");
  await rename(page, "Step id", "points");
  await inspector(page).getByLabel("Reads “source” from").selectOption({ label: "stores (Table input)" });
  const lon = inspector(page).getByLabel("lon", { exact: true });
  // the choices come with the validator's answer: wait for them
  await expect(lon).toHaveAttribute("list", /.+/);
  await expect(page.locator(`datalist#${await lon.getAttribute("list")} option`)).toHaveCount(2);
  await lon.fill("lon");
  await inspector(page).getByLabel("lat", { exact: true }).fill("lat");
  // A layer cannot feed the rows input: the form offers only the table.
  await expect(inspector(page).getByLabel("Reads “source” from").locator("option", { hasText: "cities" })).toHaveCount(0);

  // Inside the optional area: connected with the connect form.
  await addFromPalette(page, "spatial filter", "step:spatial_filter");
  await rename(page, "Step id", "in_area");
  const connectForm = page.getByRole("form", { name: "Connect" });
  await connectForm.getByLabel("Connect the output of").selectOption({ label: "points (Points from rows)" });
  await connectForm.getByLabel("to input").selectOption({ label: "source of in_area" });
  await connectForm.getByRole("button", { name: "Connect" }).click();
  await connectForm.getByLabel("Connect the output of").selectOption({ label: "limit_area (Area input)" });
  await connectForm.getByLabel("to input").selectOption({ label: "by of in_area" });
  await connectForm.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByTestId("flow-canvas").locator(".react-flow__edge")).toHaveCount(3);

  // The buffer: its source by dragging from in_area's output to its input handle; the radius from the parameter.
  await addFromPalette(page, "buffer", "step:buffer");
  await rename(page, "Step id", "buffers");
  await page.getByRole("button", { name: "Auto layout" }).click();
  await expect(node(page, "step:buffers")).toBeInViewport({ ratio: 0.95 });
  await dragHandle(
    page,
    node(page, "step:in_area").locator(".react-flow__handle.source"),
    node(page, "step:buffers").locator('.react-flow__handle[data-handleid="source"]'),
  );
  await expect(page.getByTestId("flow-canvas").locator(".react-flow__edge")).toHaveCount(4);
  await selectNode(page, "step:buffers");
  await expect(inspector(page).getByLabel("Reads “source” from")).toHaveValue("step:in_area");
  await inspector(page).getByLabel("Value of distance_km").selectOption({ label: "Parameter radius_km (number)" });

  // Count and sum the cities inside each buffer.
  await addFromPalette(page, "spatial join", "step:spatial_join");
  await rename(page, "Step id", "counted");
  await inspector(page).getByLabel("Reads “points” from").selectOption({ label: "cities (Layer input)" });
  await inspector(page).getByLabel("Reads “polygons” from").selectOption({ label: "buffers (Buffer)" });
  const aggs = inspector(page).getByRole("group", { name: "aggregations", exact: true });
  await aggs.getByRole("group", { name: "aggregations 1" }).getByLabel("as", { exact: true }).fill("city_count");
  await aggs.getByRole("button", { name: "Add one to aggregations" }).click();
  const second = aggs.getByRole("group", { name: "aggregations 2" });
  await second.getByLabel("op", { exact: true }).selectOption("sum");
  await second.getByLabel("field (optional)", { exact: true }).fill("population");
  // The live validator's problem shows on the node and next to the field until "as" is filled in.
  await expect(node(page, "step:counted")).toContainText("problem");
  await second.getByLabel("as", { exact: true }).fill("population");

  // The summary table.
  await addFromPalette(page, "aggregate", "step:aggregate");
  await rename(page, "Step id", "summary");
  await inspector(page).getByLabel("Reads “source” from").selectOption({ label: "counted (Spatial join)" });
  const sums = inspector(page).getByRole("group", { name: "aggregations", exact: true });
  await sums.getByRole("group", { name: "aggregations 1" }).getByLabel("as", { exact: true }).fill("stores");
  await sums.getByRole("button", { name: "Add one to aggregations" }).click();
  const total = sums.getByRole("group", { name: "aggregations 2" });
  await total.getByLabel("op", { exact: true }).selectOption("sum");
  // Columns of the spatial join's output are offered (from the validator's column derivation).
  const field = total.getByLabel("field (optional)", { exact: true });
  await expect(field).toHaveAttribute("list", /.+/);
  await expect(page.locator(`datalist#${await field.getAttribute("list")} option[value="city_count"]`)).toHaveCount(1);
  await field.fill("population");
  await total.getByLabel("as", { exact: true }).fill("population");

  // Results.
  await addFromPalette(page, "layer result", "result:layer");
  await rename(page, "Result key", "catchments");
  await inspector(page).getByLabel("Comes from").selectOption({ label: "counted (Spatial join)" });
  await addFromPalette(page, "table result", "result:table");
  await rename(page, "Result key", "summary");
  // A layer cannot be a table result: only the aggregate's rows are offered.
  await expect(inspector(page).getByLabel("Comes from").locator("option", { hasText: "counted" })).toHaveCount(0);
  await inspector(page).getByLabel("Comes from").selectOption({ label: "summary (Aggregate)" });
  await expect(page.getByText("No problems: the document is a valid flow version.")).toBeVisible();

  // Delete with the Delete key, undo and redo (keys and buttons).
  await addFromPalette(page, "sort", "step:sort");
  // A step added from the palette is selected; Delete deletes the selection.
  await expect(node(page, "step:sort")).toHaveClass(/\bselected\b/);
  await node(page, "step:sort").focus();
  await page.keyboard.press("Delete");
  await expect(node(page, "step:sort")).toHaveCount(0);
  await page.getByTestId("flow-canvas").click({ position: { x: 5, y: 5 } });
  await page.keyboard.press("ControlOrMeta+z");
  await expect(node(page, "step:sort")).toBeVisible();
  await page.keyboard.press("ControlOrMeta+Shift+z");
  await expect(node(page, "step:sort")).toHaveCount(0);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(node(page, "step:sort")).toBeVisible();
  await page.getByRole("button", { name: "Redo" }).click();
  await expect(node(page, "step:sort")).toHaveCount(0);

  // An edge: focused, selected with Enter, deleted with Delete (the result loses its source), undone.
  const edge = page.getByTestId("rf__edge-step:summary->result:summary:from");
  await edge.focus();
  await page.keyboard.press("Enter");
  // Selection is controlled (it goes through the canvas's state), so wait for it to show before Delete.
  await expect(edge).toHaveClass(/\bselected\b/);
  await page.keyboard.press("Delete");
  await expect(edge).toHaveCount(0);
  await expect(node(page, "result:summary")).toContainText("problem");
  await page.keyboard.press("ControlOrMeta+z");
  await expect(edge).toHaveCount(1);
  await expect(page.getByText("No problems: the document is a valid flow version.")).toBeVisible();

  // Tab moves between nodes.
  await node(page, "input:stores").focus();
  await page.keyboard.press("Tab");
  await expect
    .poll(() =>
      page.evaluate(() => document.activeElement?.closest(".react-flow__node")?.getAttribute("data-id") ?? document.activeElement?.outerHTML.slice(0, 120)),
    )
    .toBe("input:cities");

  await page.getByRole("button", { name: "Auto layout" }).click();
  await expect(page.getByText("No problems: the document is a valid flow version.")).toBeVisible();
  await selectNode(page, "step:counted");
  await checkThemesAnd390(page, "store-catchments");

  // The JSON view shows the same document.
  await page.getByRole("tab", { name: "JSON" }).click();
  await expect(page.getByTestId("flow-editor")).toContainText('"name": "stores"');
  await page.getByRole("tab", { name: "Canvas" }).click();

  await page.getByRole("button", { name: "Create flow" }).click();
  await page.waitForURL(/\/flows\/[0-9a-f-]{36}$/);
  const flowId = page.url().split("/").pop()!;
  const { rows } = await db().query(`SELECT version, definition FROM flow_version WHERE "flowId" = $1 ORDER BY version`, [flowId]);
  expect(rows).toHaveLength(1);
  expect(rows[0].definition).toEqual(EXPECTED);

  // The saved flow opens on the canvas; a change there saves version 2.
  await expect(node(page, "step:counted")).toBeVisible();
  await selectNode(page, "param:radius_km");
  await inspector(page).getByLabel("Default (optional)").fill("25");
  await expect(page.getByText("No problems: the document is a valid flow version.")).toBeVisible();
  await page.getByRole("button", { name: "Save as version 2" }).click();
  await expect(page.getByText("2 versions, latest v2")).toBeVisible();
  const v2 = await db().query(`SELECT definition FROM flow_version WHERE "flowId" = $1 AND version = 2`, [flowId]);
  expect(v2.rows[0].definition.parameters).toEqual([{ ...EXPECTED.parameters[0], default: 25 }]);

  // Run the flow being edited (the preview run): two stores pasted, the demo cities layer, no area.
  const panel = page.getByTestId("flow-run-panel");
  await panel.getByLabel("Source of stores").selectOption("paste");
  await panel.getByLabel("Rows (JSON array of objects) for stores").fill(
    JSON.stringify([
      { lon: 7.447, lat: 46.948 },
      { lon: 8.54, lat: 47.37 },
    ]),
  );
  await panel.getByLabel("Layer for cities").selectOption("world-cities");
  await panel.getByLabel("Source of limit_area").selectOption("none");
  // A preview is an ETL run of the demo workspace: not inside another spec's usage window.
  await withDemoUsageLock(async () => {
    await panel.getByRole("button", { name: "Run", exact: true }).click();
    await expect(panel.getByTestId("flow-run-state")).toHaveText("completed", { timeout: 120_000 });
  });
  // Two steps' outputs, picked on the canvas; the nodes show their row counts.
  const output = panel.getByTestId("step-output");
  await selectNode(page, "step:counted");
  await expect(output.getByRole("heading", { name: "Output of counted" })).toBeVisible();
  await expect(output.getByTestId("step-count")).toHaveText(/^2 features/);
  await expect(node(page, "step:counted").getByTestId("node-rows")).toHaveText("2 rows");
  await expect(page.getByLabel("Step to show")).toHaveValue("counted");
  await selectNode(page, "step:summary");
  await expect(output.getByRole("heading", { name: "Output of summary" })).toBeVisible();
  await expect(output.getByTestId("step-count")).toHaveText("1 row");
  await expect(output.getByRole("columnheader", { name: /population/ })).toBeVisible();
  await expect(node(page, "step:summary").getByTestId("node-rows")).toHaveText("1 row");
  await page.screenshot({ path: path.join(SHOTS, "design-canvas-store-catchments-run-light.png"), fullPage: true, animations: "disabled" });
  await expectAccessible(page, "canvas with the preview run");
  const previewCells = await output.getByRole("row").nth(1).getByRole("cell").allTextContents();
  const previewHeaders = await output.getByRole("columnheader").allTextContents();
  const previewValue = (column: string) => Number(previewCells[previewHeaders.findIndex((h) => h.startsWith(column))]!.replace(/[^\d.-]/g, ""));
  expect(previewValue("stores")).toBe(2);
  expect(previewValue("population")).toBeGreaterThan(0);

  // Published as an API, it answers over HTTP with the same numbers.
  const slug = `e2e-catchments-${name.split(" ").pop()}`;
  await page.goto(`${DESIGN}/apis`);
  await page.getByRole("button", { name: "New API" }).click();
  await chooseApiFlow(page, new RegExp(name));
  await page.getByLabel("Name").fill(`E2E catchments ${name.split(" ").pop()}`);
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create draft" }).click();
  await page.waitForURL(/\/apis\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Publish", exact: true }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Publish" }).click();
  await expect(page.getByTestId("status-production")).toContainText("Published: flow version 2 (release 1)");
  await grantDemoConsumer(slug);
  const body = {
    inputs: {
      stores: {
        rows: [
          { lon: 7.447, lat: 46.948 },
          { lon: 8.54, lat: 47.37 },
        ],
      },
      cities: { layer_id: "world-cities" },
    },
  };
  const called = await eventually("the API served", async () => {
    const c = await callPublished(slug, body);
    return c.status === 200 && c.doc.state === "completed" ? c : null;
  });
  const summary = called.doc.results.find((r: { key: string }) => r.key === "summary");
  const [header, row] = (await downloadPublished(summary.href)).trim().split(/\r?\n/);
  const served = Object.fromEntries(header!.split(",").map((h, i) => [h, Number(row!.split(",")[i])]));
  expect(served).toEqual({ stores: previewValue("stores"), population: previewValue("population") });
});

test("a 30-step flow fits the view, and a problem's pointer marks its node", async ({ page }) => {
  const steps = Array.from({ length: 30 }, (_, i) => ({ id: `s${i}`, type: "rank", source: i === 0 ? "rows" : `s${i - 1}`, field: `r${i}` }));
  const doc = { inputs: [{ name: "rows", kind: "table" }], steps, results: [{ key: "out", kind: "table", from: "s29" }] };
  await page.goto(`${DESIGN}/flows/new`);
  await page.getByRole("tab", { name: "JSON" }).click();
  const content = page.getByTestId("flow-editor").locator(".cm-content");
  await content.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("Delete");
  await page.keyboard.insertText(JSON.stringify({ ...doc, steps: steps.map((s, i) => (i === 7 ? { ...s, source: "nowhere" } : s)) }));
  await page.getByRole("tab", { name: "Canvas" }).click();
  await expect(node(page, "step:s7")).toContainText("1 problem");
  await page.getByRole("button", { name: "Fit view", exact: true }).click();
  // the whole canvas in the window, then every node in it
  await page.getByTestId("flow-canvas").evaluate((el) => el.scrollIntoView({ block: "center" }));
  for (const id of ["input:rows", "step:s0", "step:s29", "result:out"]) await expect(node(page, id)).toBeInViewport();
  await page.getByTestId("flow-problems").getByRole("button").first().click();
  await expect(inspector(page)).toContainText("/source");
  await page.screenshot({ path: path.join(SHOTS, "design-canvas-30-steps-light.png"), animations: "disabled" });
});

test("an expression option is edited as JSON with help, and checked live by the server's validator", async ({ page }) => {
  await page.goto(`${DESIGN}/flows/new`);
  await selectNode(page, "step:big");
  const where = inspector(page).getByLabel("where (expression)");
  await expect(where).toHaveValue('[">=",["to-number",["get","population"],0],["var","min_population"]]');
  await expect(inspector(page)).toContainText("A MapLibre expression that is true for the items to keep");
  await expect(inspector(page)).toContainText("Parameters: min_population.");
  await where.fill('[">=", ["get", "population"], ["var", "nope"]]');
  await expect(inspector(page).getByText(/nope/).first()).toBeVisible();
  await expect(where).toHaveAttribute("aria-invalid", "true");
  await expect(node(page, "step:big")).toContainText("problem");
  await where.fill('[">=", ["get", "population"]');
  await expect(inspector(page)).toContainText("Not valid JSON yet.");
  await where.fill('[">=", ["get", "population"], 1000]');
  await expect(page.getByText("No problems: the document is a valid flow version.")).toBeVisible();
  await expect(where).not.toHaveAttribute("aria-invalid", "true");
});

/** The new flow page with its example on the canvas, the canvas scrolled into the window. */
async function openExample(page: Page): Promise<Locator> {
  await page.goto(`${DESIGN}/flows/new`);
  await expect(node(page, "step:big")).toBeVisible();
  const canvas = page.getByTestId("flow-canvas");
  await canvas.evaluate((el) => el.scrollIntoView({ block: "center" }));
  return canvas;
}

test("the overview (minimap) is a small framed card that the toolbar hides and shows", async ({ page }) => {
  const canvas = await openExample(page);
  const minimap = canvas.locator(".react-flow__minimap");
  await expect(minimap).toBeVisible();
  const frame = await minimap.evaluate((el) => {
    const s = getComputedStyle(el);
    return { border: parseFloat(s.borderTopWidth), shadow: s.boxShadow, width: el.getBoundingClientRect().width };
  });
  expect(frame.border).toBeGreaterThan(0);
  expect(frame.shadow).not.toBe("none");
  expect(frame.width).toBeLessThanOrEqual(160);
  const overview = page.getByRole("button", { name: "Overview" });
  await expect(overview).toHaveAttribute("aria-pressed", "true");
  await overview.click();
  await expect(overview).toHaveAttribute("aria-pressed", "false");
  await expect(minimap).toHaveCount(0);
  await overview.click();
  await expect(minimap).toBeVisible();
});

test("steps added with Enter land in view, clear of the overview; when the view is full, it moves to them", async ({ page }) => {
  const canvas = await openExample(page);
  const view = (await canvas.boundingBox())!;
  const map = (await canvas.locator(".react-flow__minimap").boundingBox())!;
  for (let k = 1; k <= 8; k++) {
    await addFromPalette(page, "filter", "step:filter");
    const added = canvas.locator(".react-flow__node.selected");
    await expect(added).toHaveCount(1);
    await expect
      .poll(async () => {
        const b = (await added.boundingBox())!;
        const inView = b.x >= view.x && b.y >= view.y && b.x + b.width <= view.x + view.width && b.y + b.height <= view.y + view.height;
        const underMap = b.x + b.width > map.x && b.y + b.height > map.y;
        return inView && !underMap;
      }, `added step ${k} in view`)
      .toBe(true);
  }
  await canvas.screenshot({ path: path.join(SHOTS, "design-canvas-keyboard-added.png"), animations: "disabled" });
  // After "Start empty", a node whose id an earlier one had goes where there is room too, not to that node's old place.
  await page.getByRole("button", { name: "Start empty" }).click();
  for (const entry of ["input:layer", "input:area", "step:spatial_filter"]) {
    await addFromPalette(page, entry.split(":")[1]!.replace("_", " "), entry);
    const added = canvas.locator(`.react-flow__node.selected[data-id^="${entry.split(":")[0]}:"]`);
    await expect
      .poll(async () => {
        const b = (await added.boundingBox())!;
        return b.y >= view.y && b.y + b.height <= view.y + view.height;
      }, `${entry} in view`)
      .toBe(true);
  }
});

test("nodes and edges reached with Tab show a focus ring", async ({ page }) => {
  const canvas = await openExample(page);
  // Tab from the toolbar into the graph: edges come first, then nodes.
  const fit = page.getByRole("button", { name: "Fit view", exact: true });
  await fit.click();
  await fit.focus();
  const seen = { edge: false, node: false };
  for (let i = 0; i < 40 && !(seen.edge && seen.node); i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement!;
      if (el.matches(".react-flow__node")) {
        const s = getComputedStyle(el);
        return { kind: "node" as const, ring: s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2 };
      }
      if (el.matches(".react-flow__edge")) {
        const line = getComputedStyle(el.querySelector(".react-flow__edge-path")!);
        const halo = getComputedStyle(el.querySelector(".react-flow__edge-interaction")!);
        return { kind: "edge" as const, ring: parseFloat(line.strokeWidth) >= 2.5 && parseFloat(halo.strokeOpacity) > 0 };
      }
      return { kind: el.tagName, ring: false };
    });
    if (focused.kind === "node" || focused.kind === "edge") {
      expect(focused.ring, `a focused ${focused.kind} shows a focus ring`).toBe(true);
      if (!seen[focused.kind]) await canvas.screenshot({ path: path.join(SHOTS, `design-canvas-focus-${focused.kind}.png`), animations: "disabled" });
      seen[focused.kind] = true;
    }
  }
  expect(seen).toEqual({ edge: true, node: true });
});
