"use client";
/**
 * A MapLibre map with no remote tiles: a plain background, a 10° graticule for orientation
 * and the data as a GeoJSON source (fills, lines, points). MapLibre is loaded in the browser
 * only, its worker served by /maplibre/maplibre-gl-worker.mjs (design.md: under Turbopack the
 * worker must be served apart and named with `setWorkerUrl`).
 *
 * With `onDraw`, clicks add the corners of a polygon; "Close polygon" closes the ring and
 * reports it (a GeoJSON Polygon, lon/lat; the server applies the RFC 7946 right-hand rule).
 * From the keyboard: focus the map, move it with the arrow keys (+/- zoom; MapLibre's own
 * keyboard handler) and press "Add corner at the centre", marked by a cross on the map.
 * Pasting the polygon stays the other keyboard path.
 */
import { useEffect, useRef, useState } from "react";
import type { Map as TMap, GeoJSONSource } from "maplibre-gl";
import type { FeatureCollection, Polygon } from "geojson";
import { useTheme } from "next-themes";
import "maplibre-gl/dist/maplibre-gl.css";
import { Button } from "@/components/ui/button";

/** Background and graticule per theme (a light block in the dark theme glared in screenshots). */
const PALETTE = {
  light: { background: "#eef2f6", graticule: "#c8d0da" },
  dark: { background: "#1c2430", graticule: "#3a4656" },
} as const;

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

export function MapView(props: { data?: FeatureCollection; label: string; onDraw?: (polygon: Polygon | null) => void; className?: string }) {
  const host = useRef<HTMLDivElement>(null);
  const map = useRef<TMap | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const [corners, setCorners] = useState<[number, number][]>([]);
  const [closed, setClosed] = useState(false);
  const drawing = Boolean(props.onDraw);
  const { resolvedTheme } = useTheme();
  const palette = PALETTE[resolvedTheme === "dark" ? "dark" : "light"];

  useEffect(() => {
    let cancelled = false;
    let m: TMap | null = null;
    (async () => {
      try {
        const maplibre = await import("maplibre-gl");
        maplibre.setWorkerUrl(new URL("/maplibre/maplibre-gl-worker.mjs", window.location.origin).href);
        if (cancelled || !host.current) return;
        m = new maplibre.Map({
          container: host.current,
          style: {
            version: 8,
            sources: {
              graticule: { type: "geojson", data: graticule() },
              data: { type: "geojson", data: { type: "FeatureCollection", features: [] } },
              draw: { type: "geojson", data: { type: "FeatureCollection", features: [] } },
            },
            layers: [
              { id: "bg", type: "background", paint: { "background-color": "#eef2f6" } },
              { id: "graticule", type: "line", source: "graticule", paint: { "line-color": "#c8d0da", "line-width": 0.6 } },
              {
                id: "fill",
                type: "fill",
                source: "data",
                filter: ["==", ["geometry-type"], "Polygon"],
                paint: { "fill-color": "#2563eb", "fill-opacity": 0.25 },
              },
              {
                id: "outline",
                type: "line",
                source: "data",
                filter: ["!=", ["geometry-type"], "Point"],
                paint: { "line-color": "#1d4ed8", "line-width": 1.2 },
              },
              {
                id: "points",
                type: "circle",
                source: "data",
                filter: ["==", ["geometry-type"], "Point"],
                paint: { "circle-radius": 3.5, "circle-color": "#dc2626", "circle-stroke-color": "#fff", "circle-stroke-width": 1 },
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
        m.on("load", () => {
          if (cancelled) return;
          map.current = m;
          setReady(true);
        });
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
    m.setPaintProperty("bg", "background-color", palette.background);
    m.setPaintProperty("graticule", "line-color", palette.graticule);
  }, [ready, palette]);

  // Show the data and fit the view to it.
  useEffect(() => {
    const m = map.current;
    if (!ready || !m || !props.data) return;
    (m.getSource("data") as GeoJSONSource).setData(props.data);
    const b = bboxOfCollection(props.data);
    if (b) m.fitBounds([b[0], b[1], b[2], b[3]], { padding: 30, maxZoom: 12, duration: 0 });
  }, [ready, props.data]);

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
    <div className={props.className}>
      <div className="relative">
        <div
          ref={host}
          role="region"
          aria-label={props.label}
          className="h-72 w-full overflow-hidden rounded-md border"
          data-testid="map"
          data-ready={ready ? "true" : "false"}
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
    </div>
  );
}
