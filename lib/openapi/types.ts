/** Shapes of the OpenAPI 3.1 document of a published Flow API (lib/openapi/build-openapi.ts). */
import type { TFlowVersion } from "@/lib/flows/definition";
import type { TReadableLayer } from "@/lib/flows/input-geometry";
import type { TApiPath } from "@/lib/runs/scope";

export interface TOpenApiSource extends TApiPath {
  /** Display name of the API. */
  name: string;
  description: string | null;
  flowVersion: number;
  flow: TFlowVersion;
  /** API base, e.g. `https://host/public/api/demo/production/cities-in-area`. */
  serverUrl: string;
  /** Request body limit, bytes (413 above it). */
  maxBodyBytes: number;
  /** The layers the environment may read (for `{"layer_id"}`), offered on each input they fit. */
  readableLayers?: readonly TReadableLayer[];
}

export type TJsonSchema = Record<string, unknown>;

export interface TOpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string; "x-flow-version": number };
  servers: { url: string; description?: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, TJsonSchema>;
    securitySchemes: Record<string, unknown>;
    headers: Record<string, unknown>;
    responses: Record<string, unknown>;
    parameters: Record<string, unknown>;
  };
}
