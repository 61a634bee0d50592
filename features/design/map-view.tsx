"use client";
/**
 * Every map of the app: MapLibre with no remote tiles (style and theme colours in
 * map-style.ts; the basemap is /maplibre/countries.json, Natural Earth 1:110m from
 * `world-atlas`, built once and cached). MapLibre loads in the browser only, its worker served
 * by /maplibre/maplibre-gl-worker.mjs (under Turbopack it must be served apart and named with
 * `setWorkerUrl`, design.md). A click on a feature shows its properties and selects it;
 * `attributes` adds the attribute table below (the keyboard path to the same properties);
 * `onDraw` draws a polygon (map-drawing.tsx; pasting stays the keyboard path).
 * For tests, the map element carries `data-ready`, `data-basemap` and `maplibreMap`.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { Map as TMap, GeoJSONSource, Popup as TPopup, MapLayerMouseEvent } from "maplibre-gl";
import type { FeatureCollection, Polygon } from "geojson";
import { useTheme } from "next-themes";
import "maplibre-gl/dist/maplibre-gl.css";
import { AttributeTable } from "@/features/design/attribute-table";
import { bboxOfCollection, popupContent } from "@/features/design/map-data";
import { DrawingControls, usePolygonDrawing } from "@/features/design/map-drawing";
import { DATA_LAYERS, mapStyle, PALETTE, themedPaint } from "@/features/design/map-style";

/** A map of `data` (see module doc). */
export function MapView(props: {
  data?: FeatureCollection;
  label: string;
  onDraw?: (polygon: Polygon | null) => void;
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
  const [selected, setSelected] = useState<number | null>(null);
  // Whether the last selection came from the table: only then does the map move to it.
  const selectedFromTable = useRef(false);
  const draw = usePolygonDrawing(map, ready, props.onDraw);
  const { drawing, closed } = draw;
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
        m = new maplibre.Map({
          container: host.current,
          style: mapStyle(window.location.origin),
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
      const duration = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ? 0 : 500;
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

  return (
    <div className="min-w-0">
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
      {drawing ? <DrawingControls draw={draw} ready={ready} /> : null}
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
