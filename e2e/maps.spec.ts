/**
 * The maps (features/design/map-view.tsx) in Chromium, on a layer's page: the basemap of
 * Natural Earth countries is loaded and drawn under the data (read through the MapLibre map the
 * element carries for tests), a scale bar and zoom buttons are on the map, a click on a feature
 * opens a popup with its properties, and the attribute table below lists the features with
 * typed columns; choosing a row highlights its feature and brings it to the middle of the map.
 * Axe in both themes with the popup open. Screenshots go to `UX_SHOTS_DIR` (default
 * .data/screenshots/ux).
 */
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "@playwright/test";
import type { Map as TMap } from "maplibre-gl";
import { expectAccessible } from "./support/a11y";
import { ROOT, STORAGE } from "./support/env";

const SHOTS = process.env.UX_SHOTS_DIR ?? path.join(ROOT, ".data/screenshots/ux");
type THost = HTMLElement & { maplibreMap: TMap };

test.use({ storageState: STORAGE.designer });

test("a layer's map shows the countries, a popup on click and the attribute table", async ({ page }) => {
  await mkdir(SHOTS, { recursive: true });
  await page.goto("/design/demo/demo/layers/world-cities");
  const map = page.getByTestId("map");
  await expect(map).toHaveAttribute("data-ready", "true");
  await expect(map).toHaveAttribute("data-basemap", "loaded");

  // The basemap: countries from world-atlas, drawn under the data.
  const basemap = await map.evaluate((el) => {
    const m = (el as THost).maplibreMap;
    const names = new Set(m.querySourceFeatures("countries").map((f) => String(f.properties.name)));
    const order = m.getStyle().layers.map((l) => l.id);
    return {
      names: [...names],
      landBelowData: order.indexOf("land") < order.indexOf("points"),
      scale: el.querySelector(".maplibregl-ctrl-scale")?.textContent,
    };
  });
  expect(basemap.names).toEqual(expect.arrayContaining(["Germany", "France", "Switzerland"]));
  expect(basemap.landBelowData).toBe(true);
  expect(basemap.scale).toMatch(/\d+\s*(km|m)$/);
  await expect(map.getByRole("button", { name: "Zoom in" })).toBeVisible();

  // The attribute table: typed columns, the first rows of the sample.
  const table = page.getByTestId("attribute-table");
  await expect(table).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "name text" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "population number" })).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(101);

  // A click on a drawn point opens a popup with the properties of the feature there.
  await map.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => !(document.querySelector("[data-testid=map]") as THost).maplibreMap.isMoving());
  const target = await map.evaluate((el) => {
    const m = (el as THost).maplibreMap;
    const canvas = m.getCanvas().getBoundingClientRect();
    // A point well inside the map, away from the controls in its corners.
    const f = m.queryRenderedFeatures({ layers: ["points"] }).find((x) => {
      const p = m.project((x.geometry as GeoJSON.Point).coordinates as [number, number]);
      return p.x > 80 && p.x < canvas.width - 80 && p.y > 60 && p.y < canvas.height - 60;
    })!;
    const p = m.project((f.geometry as GeoJSON.Point).coordinates as [number, number]);
    const here = m.queryRenderedFeatures([p.x, p.y], { layers: ["points"] }).map((x) => String(x.properties.name));
    return { x: canvas.left + p.x, y: canvas.top + p.y, names: here };
  });
  await page.mouse.click(target.x, target.y);
  const popup = page.locator(".maplibregl-popup");
  await expect(popup).toBeVisible();
  const shown = await popup.getByRole("rowheader", { name: "name", exact: true }).locator("xpath=following-sibling::td").innerText();
  expect(target.names).toContain(shown);
  await expect(popup.getByRole("rowheader", { name: "population", exact: true })).toBeVisible();
  await expect(popup.getByRole("button", { name: "Close popup" })).toBeVisible();
  for (const colorScheme of ["dark", "light"] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator("html")).toHaveClass(new RegExp(`\\b${colorScheme}\\b`));
    await expectAccessible(page, `layer page with a popup (${colorScheme})`);
    await page.locator("main").screenshot({ path: path.join(SHOTS, `layer-map-popup-${colorScheme}.png`), animations: "disabled" });
  }

  // Choosing a row: its feature is highlighted and brought to the middle of the map.
  const first = table.getByRole("button", { name: "Show feature 1 on the map" });
  await first.click();
  await expect(first).toHaveAttribute("aria-pressed", "true");
  await page.waitForFunction(() => {
    const m = (document.querySelector("[data-testid=map]") as THost).maplibreMap;
    if (m.isMoving() || m.getFeatureState({ source: "data", id: 0 }).selected !== true) return false;
    const c = m.project(m.getCenter());
    return m.queryRenderedFeatures([c.x, c.y], { layers: ["points"] }).some((f) => f.id === 0);
  });
});
