-- Geometry types of a features layer (issue "What users tripped on", item 2): the distinct
-- GeoJSON geometry type names of its features ("Point", "MultiPolygon", ...), sorted, so a
-- run can refuse a layer whose geometry does not fit what a flow input declares (422) and
-- the docs, MCP tools and Try it can offer the layers that fit. Empty: not known yet (a
-- layer stored before this migration, or a table); such a layer passes the check.
ALTER TABLE "layer" ADD COLUMN "geometryTypes" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
