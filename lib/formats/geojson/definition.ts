/** GeoJSON, the default format of layers. Writer: ./write.ts. */
import { defineFormat } from "../define-format";

export const geojson = defineFormat({
  name: "geojson",
  kinds: ["layer"],
  mediaType: "application/geo+json",
  extension: "geojson",
  binary: false,
  summary: "An RFC 7946 GeoJSON FeatureCollection, UTF-8, WGS 84 longitude/latitude",
});
