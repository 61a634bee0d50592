import { describe, expect, it } from "vitest";
import { describeCrs, geoJsonCrsFault, isLonLatCrs } from "./crs";

/** PROJJSON as pyproj writes it, abridged. */
const projjson = (authority: string, code: string | number, name: string) => ({
  $schema: "https://proj.org/schemas/v0.7/projjson.schema.json",
  type: authority === "EPSG" && code === 3857 ? "ProjectedCRS" : "GeographicCRS",
  name,
  id: { authority, code },
});

describe("isLonLatCrs", () => {
  it("accepts OGC:CRS84 and EPSG:4326 by name, URN, URI or PROJJSON id", () => {
    for (const crs of [
      "OGC:CRS84",
      "EPSG:4326",
      "urn:ogc:def:crs:OGC:1.3:CRS84",
      "urn:ogc:def:crs:OGC::CRS84",
      "urn:ogc:def:crs:EPSG::4326",
      "http://www.opengis.net/def/crs/OGC/1.3/CRS84",
      "https://www.opengis.net/def/crs/EPSG/0/4326",
      projjson("OGC", "CRS84", "WGS 84 (CRS84)"),
      projjson("EPSG", 4326, "WGS 84"),
      projjson("EPSG", "4326", "WGS 84"),
      { name: "WGS 84", ids: [{ authority: "EPSG", code: 4326 }] },
    ])
      expect(isLonLatCrs(crs), JSON.stringify(crs)).toBe(true);
  });

  it("refuses any other CRS, and a PROJJSON that names none", () => {
    for (const crs of [
      "EPSG:3857",
      "urn:ogc:def:crs:EPSG::2056",
      "EPSG:43260",
      projjson("EPSG", 3857, "WGS 84 / Pseudo-Mercator"),
      { name: "WGS 84" },
      4326,
      [],
    ])
      expect(isLonLatCrs(crs), JSON.stringify(crs)).toBe(false);
    expect(describeCrs(projjson("EPSG", 3857, "WGS 84 / Pseudo-Mercator"))).toBe('EPSG:3857 ("WGS 84 / Pseudo-Mercator")');
    expect(describeCrs({ name: "Local grid" })).toBe('"Local grid"');
  });
});

describe("geoJsonCrsFault", () => {
  it("accepts null and a named CRS84 or EPSG:4326; refuses other names and linked CRSs, saying what to do", () => {
    const named = (name: string) => ({ type: "name", properties: { name } });
    expect(geoJsonCrsFault(null)).toBeUndefined();
    expect(geoJsonCrsFault(named("urn:ogc:def:crs:OGC:1.3:CRS84"))).toBeUndefined();
    expect(geoJsonCrsFault(named("EPSG:4326"))).toBeUndefined();
    expect(geoJsonCrsFault(named("urn:ogc:def:crs:EPSG::3857"))).toBe(
      'declares the CRS "urn:ogc:def:crs:EPSG::3857" in its crs member (GeoJSON 2008); GeoJSON (RFC 7946) is longitude/latitude on WGS 84, the only CRS read: reproject it to longitude/latitude first (e.g. GeoPandas to_crs(4326), ogr2ogr -t_srs EPSG:4326), or remove the member if the coordinates are longitude/latitude already.',
    );
    expect(geoJsonCrsFault({ type: "link", properties: { href: "http://example.com/crs/42" } })).toMatch(
      /^declares a CRS this service cannot tell \(\{"type":"link"/,
    );
  });
});
