"use client";
/**
 * Every map of the app (layer previews, Try-it results, drawing an area, step previews):
 * MapLibre with no remote tiles. Under the data lie a basemap of Natural Earth 1:110m country
 * outlines (land and borders; /maplibre/countries.json, made from the installed `world-atlas`
 * package at build and cached by the browser, so no map fetches it twice) and a 10° graticule,
 * in colours per theme (the dark one does not glare). The data is a GeoJSON source (fills,
 * lines, points). A scale bar and zoom buttons sit on the map. MapLibre is loaded in the
 * browser only, its worker served by /maplibre/maplibre-gl-worker.mjs (design.md: under
 * Turbopack the worker must be served apart and named with `setWorkerUrl`).
 *
 * A click on a feature opens a popup with its properties and selects it. With `attributes`,
 * the attribute table of the data (features/design/attribute-table.tsx) sits below the map:
 * the keyboard path to the same properties; choosing a row highlights its feature and moves
 * the map to it.
 *
 * With `onDraw`, clicks add the corners of a polygon; "Close polygon" closes the ring and
 * reports it (a GeoJSON Polygon, lon/lat; the server applies the RFC 7946 right-hand rule).
 * From the keyboard: focus the map, move it with the arrow keys (+/- zoom; MapLibre's own
 * keyboard handler) and press "Add corner at the centre", marked by a cross on the map.
 * Pasting the polygon stays the other keyboard path.
 *
 * For tests, the map element carries `data-ready`, `data-basemap` ("loaded" once the
 * countries are drawn) and the MapLibre map itself as its `maplibreMap` property.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { Map as TMap, GeoJSONSource, Popup as TPopup, MapLayerMouseEvent, ExpressionSpecification } from "maplibre-gl";
import type { Feature, FeatureCollection, Polygon } from "geojson";
import { useTheme } from "next-themes";
import "maplibre-gl/dist/maplibre-gl.css";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";
import { AttributeTable } from "@/features/design/attribute-table";
import { formatValue } from "@/features/design/attribute-columns";

/** Basemap and data colours per theme (a light block in the dark theme glared in screenshots). */
const PALETTE = {
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
function themedPaint(p: TPalette): [layer: string, property: string, value: unknown][] {
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
const DATA_LAYERS = ["fill", "outline", "points"];

const EMPTY: FeatureCollection = { type: "FeatureCollection", features: [] };

const reducedMotion = () => typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

/** The popup of one feature: its number and a two-column table of its properties. */
function popupContent(feature: Feature, index: number): HTMLElement {
  const box = document.createElement("div");
  box.className = "max-h-56 max-w-64 overflow-auto text-xs";
  const title = document.createElement("p");
  title.className = "mb-1 font-medium";
  title.textContent = `Feature ${index + 1}`;
  box.append(title);
  const entries = Object.entries(feature.properties ?? {});
  if (entries.length === 0) {
    const none = document.createElement("p");
    none.textContent = "No properties.";
    box.append(none);
    return box;
  }
  const table = document.createElement("table");
  table.className = "border-collapse";
  for (const [k, v] of entries) {
    const tr = document.createElement("tr");
    const th = document.createElement("th");
    th.scope = "row";
    th.className = "pr-2 text-left align-top font-medium whitespace-nowrap";
    th.textContent = k;
    const td = document.createElement("td");
    td.className = "align-top break-all";
    td.textContent = formatValue(v);
    tr.append(th, td);
    table.append(tr);
  }
  box.append(table);
  return box;
}

function graticule(): FeatureCollection {
  const features: FeatureCollection["features"] = [];
  for (let lon = -180; lon <= 180; lon += 10)
    features.push({
      type: "Feature",
      properties: {},
      geometry: {
        type: "LineString",
        coordinates: [
          [lon, -85],
          [lon, 85],
        ],
      },
    });
  for (let lat = -80; lat <= 80; lat += 10)
    features.push({
      type: "Feature",
      properties: {},
      geometry: {
        type: "LineString",
        coordinates: [
          [-180, lat],
          [180, lat],
        ],
      },
    });
  return { type: "FeatureCollection", features };
}

export function bboxOfCollection(fc: FeatureCollection): [number, number, number, number] | null {
  let w = Infinity,
    s = Infinity,
    e = -Infinity,
    n = -Infinity;
  const visit = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === "number") {
      const [x, y] = c as number[];
      w = Math.min(w, x!);
      e = Math.max(e, x!);
      s = Math.min(s, y!);
      n = Math.max(n, y!);
    } else if (Array.isArray(c)) c.forEach(visit);
  };
  for (const f of fc.features) if (f.geometry && "coordinates" in f.geometry) visit(f.geometry.coordinates);
  return Number.isFinite(w) ? [w, s, e, n] : null;
}

export function MapView(props: {
  data?: FeatureCollection;
  label: string;
  onDraw?: (polygon: Polygon | null) => void;
  className?: string;
  /** Show the attribute table of `data` below the map (the first 100 features). */
  attributes?: boolean;
}) {
  const host = useRef<HTMLDivElement>(null);
  const map = useRef<TMap | null>(null);
  const popup = useRef<TPopup | null>(null);
  const PopupClass = useRef<typeof TPopup | null>(null);
  const [ready, setReady] = useState(false);
  const [basemap, setBasemap] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [corners, setCorners] = useState<[number, number][]>([]);
  const [closed, setClosed] = useState(false);
  const [selected, setSelected] = useState<number | null>(null);
  // Whether the last selection came from the table: only then does the map move to it.
  const selectedFromTable = useRef(false);
  const drawing = Boolean(props.onDraw);
  const { resolvedTheme } = useTheme();
  const palette = PALETTE[resolvedTheme === "dark" ? "dark" : "light"];
  const data = props.data;
  const dataRef = useRef(data);
  dataRef.current = data;

  useEffect(() => {
    let cancelled = false;
    let m: TMap | null = null;
    (async () => {
      try {
        const maplibre = await import("maplibre-gl");
        maplibre.setWorkerUrl(new URL("/maplibre/maplibre-gl-worker.mjs", window.location.origin).href);
        if (cancelled || !host.current) return;
        PopupClass.current = maplibre.Popup;
        const p = PALETTE.light;
        m = new maplibre.Map({
          container: host.current,
          style: {
            version: 8,
            sources: {
              countries: { type: "geojson", data: new URL("/maplibre/countries.json", window.location.origin).href },
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
          },
          center: [8, 47],
          zoom: 2,
          attributionControl: false,
        });
        m.addControl(new maplibre.NavigationControl({ showCompass: false }));
        m.addControl(new maplibre.ScaleControl({ unit: "metric" }), "bottom-left");
        (host.current as THostElement).maplibreMap = m;
        m.on("load", () => {
          if (cancelled) return;
          map.current = m;
          setReady(true);
        });
        // Once the countries are drawn the basemap is in place for good: stop looking.
        const onIdle = () => {
          if (cancelled || !m?.isSourceLoaded("countries") || m.querySourceFeatures("countries").length === 0) return;
          m.off("idle", onIdle);
          setBasemap(true);
        };
        m.on("idle", onIdle);
      } catch (e) {
        setFailed((e as Error).message);
      }
    })();
    return () => {
      cancelled = true;
      m?.remove();
      map.current = null;
    };
  }, []);

  useEffect(() => {
    const m = map.current;
    if (!ready || !m) return;
    for (const [layer, property, value] of themedPaint(palette)) m.setPaintProperty(layer, property as "fill-color", value as string);
  }, [ready, palette]);

  // Show the data and fit the view to it; a new collection starts with nothing selected.
  useEffect(() => {
    const m = map.current;
    if (!ready || !m || !data) return;
    popup.current?.remove();
    setSelected(null);
    (m.getSource("data") as GeoJSONSource).setData(data);
    const b = bboxOfCollection(data);
    if (b) m.fitBounds([b[0], b[1], b[2], b[3]], { padding: 30, maxZoom: 12, duration: 0 });
  }, [ready, data]);

  // Mark the selected feature; from the table, also move the map to it.
  useEffect(() => {
    const m = map.current;
    if (!ready || !m || selected === null) return;
    m.setFeatureState({ source: "data", id: selected }, { selected: true });
    const feature = dataRef.current?.features[selected];
    if (selectedFromTable.current && feature) {
      popup.current?.remove();
      const b = bboxOfCollection({ type: "FeatureCollection", features: [feature] });
      const duration = reducedMotion() ? 0 : 500;
      if (b && b[0] === b[2] && b[1] === b[3]) m.easeTo({ center: [b[0], b[1]], zoom: Math.max(m.getZoom(), 6), duration });
      else if (b) m.fitBounds([b[0], b[1], b[2], b[3]], { padding: 40, maxZoom: 10, duration });
    }
    return () => {
      if (map.current?.getSource("data")) map.current.setFeatureState({ source: "data", id: selected }, { selected: false });
    };
  }, [ready, selected]);

  // A click on a feature: a popup with its properties, and it becomes the selected one.
  useEffect(() => {
    const m = map.current;
    const Popup = PopupClass.current;
    if (!ready || !m || !Popup || drawing) return;
    const onClick = (e: MapLayerMouseEvent) => {
      const id = e.features?.[0]?.id;
      const feature = typeof id === "number" ? dataRef.current?.features[id] : undefined;
      if (typeof id !== "number" || !feature) return;
      popup.current?.remove();
      popup.current = new Popup({ maxWidth: "18rem", className: "map-popup" }).setLngLat(e.lngLat).setDOMContent(popupContent(feature, id)).addTo(m);
      selectedFromTable.current = false;
      setSelected(id);
    };
    const pointer = () => (m.getCanvas().style.cursor = "pointer");
    const plain = () => (m.getCanvas().style.cursor = "");
    m.on("click", DATA_LAYERS, onClick);
    m.on("mouseenter", DATA_LAYERS, pointer);
    m.on("mouseleave", DATA_LAYERS, plain);
    return () => {
      m.off("click", DATA_LAYERS, onClick);
      m.off("mouseenter", DATA_LAYERS, pointer);
      m.off("mouseleave", DATA_LAYERS, plain);
    };
  }, [ready, drawing]);

  const selectFromTable = useCallback((index: number) => {
    selectedFromTable.current = true;
    setSelected(index);
  }, []);

  // Drawing: clicks add corners.
  useEffect(() => {
    const m = map.current;
    if (!ready || !m || !drawing) return;
    const onClick = (e: { lngLat: { lng: number; lat: number } }) => {
      if (closed) return;
      setCorners((c) => [...c, [Number(e.lngLat.lng.toFixed(5)), Number(e.lngLat.lat.toFixed(5))]]);
    };
    m.on("click", onClick);
    m.getCanvas().style.cursor = closed ? "" : "crosshair";
    return () => {
      m.off("click", onClick);
    };
  }, [ready, drawing, closed]);

  useEffect(() => {
    const m = map.current;
    if (!ready || !m || !drawing) return;
    const ring = closed && corners.length >= 3 ? [...corners, corners[0]!] : corners;
    const features: FeatureCollection["features"] = corners.map((c) => ({ type: "Feature", properties: {}, geometry: { type: "Point", coordinates: c } }));
    if (ring.length >= 2)
      features.push({
        type: "Feature",
        properties: {},
        geometry: closed ? { type: "Polygon", coordinates: [ring] } : { type: "LineString", coordinates: ring },
      });
    (m.getSource("draw") as GeoJSONSource).setData({ type: "FeatureCollection", features });
  }, [ready, drawing, corners, closed]);

  const close = () => {
    if (corners.length < 3) return;
    setClosed(true);
    props.onDraw?.({ type: "Polygon", coordinates: [[...corners, corners[0]!]] });
  };
  const addCentre = () => {
    const m = map.current;
    if (!m || closed) return;
    const c = m.getCenter();
    setCorners((all) => [...all, [Number(c.lng.toFixed(5)), Number(c.lat.toFixed(5))]]);
  };
  const clear = () => {
    setCorners([]);
    setClosed(false);
    props.onDraw?.(null);
  };

  return (
    <div className={cn("min-w-0", props.className)}>
      <div className="relative">
        <div
          ref={host}
          role="region"
          aria-label={props.label}
          className="h-72 w-full overflow-hidden rounded-md border"
          data-testid="map"
          data-ready={ready ? "true" : "false"}
          data-basemap={basemap ? "loaded" : "loading"}
        />
        {drawing && !closed ? (
          // The centre the keyboard adds a corner at; it lets clicks through to the map.
          <span
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-1/2 -translate-x-1/2 -translate-y-1/2 text-lg leading-none text-amber-700 dark:text-amber-400"
          >
            +
          </span>
        ) : null}
      </div>
      {failed ? <p className="mt-1 text-sm text-destructive">The map could not start: {failed}</p> : null}
      {drawing ? (
        <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
          <span className="text-muted-foreground" aria-live="polite">
            {closed ? "Polygon closed." : `Click the map to add corners, or move it with the arrow keys and add its centre (${corners.length} so far).`}
          </span>
          <Button type="button" size="sm" variant="outline" onClick={addCentre} disabled={!ready || closed}>
            Add corner at the centre
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={close} disabled={closed || corners.length < 3}>
            Close polygon
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={clear} disabled={corners.length === 0}>
            Clear
          </Button>
        </div>
      ) : null}
      {props.attributes && data && data.features.length > 0 ? (
        <div className="mt-2">
          <AttributeTable
            features={data.features}
            label={`Attributes of ${props.label.replace(/^Map of /, "").replace(/:.*$/, "")}`}
            selected={selected}
            onSelect={selectFromTable}
          />
        </div>
      ) : null}
    </div>
  );
}

/** The map's element, carrying the MapLibre map for tests. */
type THostElement = HTMLDivElement & { maplibreMap?: TMap };
