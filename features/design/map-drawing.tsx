"use client";
/**
 * Drawing a polygon on a map: clicks add corners, "Close polygon" reports the ring (GeoJSON,
 * lon/lat, 5 decimals; the server applies the RFC 7946 right-hand rule). From the keyboard:
 * move the map with the arrow keys and add its centre, marked by a cross.
 */
import { useEffect, useState, type RefObject } from "react";
import type { Map as TMap, GeoJSONSource } from "maplibre-gl";
import type { FeatureCollection, Polygon } from "geojson";
import { Button } from "@/components/ui/button";

const corner = (lng: number, lat: number): [number, number] => [Number(lng.toFixed(5)), Number(lat.toFixed(5))];

/** The polygon being drawn on `map` once it is `ready`; nothing happens without `onDraw`. */
export function usePolygonDrawing(map: RefObject<TMap | null>, ready: boolean, onDraw: ((polygon: Polygon | null) => void) | undefined) {
  const [corners, setCorners] = useState<[number, number][]>([]);
  const [closed, setClosed] = useState(false);
  const drawing = Boolean(onDraw);

  // Clicks add corners.
  useEffect(() => {
    const m = map.current;
    if (!ready || !m || !drawing) return;
    const onClick = (e: { lngLat: { lng: number; lat: number } }) => {
      if (!closed) setCorners((c) => [...c, corner(e.lngLat.lng, e.lngLat.lat)]);
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

  return {
    drawing,
    corners,
    closed,
    close: () => {
      if (corners.length < 3) return;
      setClosed(true);
      onDraw?.({ type: "Polygon", coordinates: [[...corners, corners[0]!]] });
    },
    addCentre: () => {
      const m = map.current;
      if (!m || closed) return;
      const c = m.getCenter();
      setCorners((all) => [...all, corner(c.lng, c.lat)]);
    },
    clear: () => {
      setCorners([]);
      setClosed(false);
      onDraw?.(null);
    },
  };
}

/** What has been drawn so far and the buttons to add the centre, close the polygon, or start again. */
export function DrawingControls({ draw, ready }: { draw: ReturnType<typeof usePolygonDrawing>; ready: boolean }) {
  const { closed, corners } = draw;
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
      <span className="text-muted-foreground" aria-live="polite">
        {closed ? "Polygon closed." : `Click the map to add corners, or move it with the arrow keys and add its centre (${corners.length} so far).`}
      </span>
      <Button type="button" size="sm" variant="outline" onClick={draw.addCentre} disabled={!ready || closed}>
        Add corner at the centre
      </Button>
      <Button type="button" size="sm" variant="outline" onClick={draw.close} disabled={closed || corners.length < 3}>
        Close polygon
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={draw.clear} disabled={corners.length === 0}>
        Clear
      </Button>
    </div>
  );
}
