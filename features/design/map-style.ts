/**
 * The look of every map: the MapLibre style (Natural Earth country outlines and a 10° graticule
 * under the data, the polygon being drawn on top) and its colours per theme. The data source
 * numbers its features (`generateId`), so a feature's id is its index in the collection.
 */
import type { ExpressionSpecification, StyleSpecification } from "maplibre-gl";
import type { FeatureCollection } from "geojson";

/** Basemap and data colours per theme (a light block in the dark theme glared in screenshots). */
export const PALETTE = {
  light: {
    background: "#dde8f3",
    land: "#f7f6f2",
    border: "#a3adb9",
    graticule: "#c3d0de",
    fill: "#2563eb",
    line: "#1d4ed8",
    point: "#dc2626",
    pointStroke: "#ffffff",
    selected: "#d97706",
  },
  dark: {
    background: "#111923",
    land: "#222b37",
    border: "#4f5d6e",
    graticule: "#2a3644",
    fill: "#60a5fa",
    line: "#93c5fd",
    point: "#f87171",
    pointStroke: "#0f172a",
    selected: "#fbbf24",
  },
} as const;
type TPalette = (typeof PALETTE)["light" | "dark"];

const SELECTED: ExpressionSpecification = ["boolean", ["feature-state", "selected"], false];

/** Paint properties that follow the theme, by layer. */
export function themedPaint(p: TPalette): [layer: string, property: string, value: unknown][] {
  return [
    ["bg", "background-color", p.background],
    ["land", "fill-color", p.land],
    ["borders", "line-color", p.border],
    ["graticule", "line-color", p.graticule],
    ["fill", "fill-color", ["case", SELECTED, p.selected, p.fill]],
    ["outline", "line-color", ["case", SELECTED, p.selected, p.line]],
    ["points", "circle-color", ["case", SELECTED, p.selected, p.point]],
    ["points", "circle-stroke-color", p.pointStroke],
  ];
}

/** The layers a click on the map opens a popup for. */
export const DATA_LAYERS = ["fill", "outline", "points"];

const EMPTY: FeatureCollection = { type: "FeatureCollection", features: [] };

/** Lines every 10° of longitude and latitude, as one feature. */
function graticule(): FeatureCollection {
  const lines: [number, number][][] = [];
  for (let lon = -180; lon <= 180; lon += 10)
    lines.push([
      [lon, -85],
      [lon, 85],
    ]);
  for (let lat = -80; lat <= 80; lat += 10)
    lines.push([
      [-180, lat],
      [180, lat],
    ]);
  return { type: "FeatureCollection", features: [{ type: "Feature", properties: {}, geometry: { type: "MultiLineString", coordinates: lines } }] };
}

/** The style of a map, its sources fetched from `origin`, in the light colours (`themedPaint` sets the others). */
export function mapStyle(origin: string): StyleSpecification {
  const p = PALETTE.light;
  return {
    version: 8,
    sources: {
      countries: { type: "geojson", data: new URL("/maplibre/countries.json", origin).href },
      graticule: { type: "geojson", data: graticule() },
      // generateId: a feature's id is its index in `data`, for the popup, the table and feature-state.
      data: { type: "geojson", data: EMPTY, generateId: true },
      draw: { type: "geojson", data: EMPTY },
    },
    layers: [
      { id: "bg", type: "background", paint: { "background-color": p.background } },
      { id: "land", type: "fill", source: "countries", paint: { "fill-color": p.land } },
      { id: "graticule", type: "line", source: "graticule", paint: { "line-color": p.graticule, "line-width": 0.6 } },
      { id: "borders", type: "line", source: "countries", paint: { "line-color": p.border, "line-width": 0.7 } },
      {
        id: "fill",
        type: "fill",
        source: "data",
        filter: ["==", ["geometry-type"], "Polygon"],
        paint: { "fill-color": p.fill, "fill-opacity": ["case", SELECTED, 0.5, 0.25] },
      },
      {
        id: "outline",
        type: "line",
        source: "data",
        filter: ["!=", ["geometry-type"], "Point"],
        paint: { "line-color": p.line, "line-width": ["case", SELECTED, 3, 1.2] },
      },
      {
        id: "points",
        type: "circle",
        source: "data",
        filter: ["==", ["geometry-type"], "Point"],
        paint: {
          "circle-radius": ["case", SELECTED, 6, 3.5],
          "circle-color": p.point,
          "circle-stroke-color": p.pointStroke,
          "circle-stroke-width": ["case", SELECTED, 2, 1],
        },
      },
      {
        id: "draw-fill",
        type: "fill",
        source: "draw",
        filter: ["==", ["geometry-type"], "Polygon"],
        paint: { "fill-color": "#f59e0b", "fill-opacity": 0.3 },
      },
      { id: "draw-line", type: "line", source: "draw", paint: { "line-color": "#b45309", "line-width": 2 } },
      {
        id: "draw-points",
        type: "circle",
        source: "draw",
        filter: ["==", ["geometry-type"], "Point"],
        paint: { "circle-radius": 4, "circle-color": "#b45309" },
      },
    ],
  };
}
