/**
 * What a result format is, on GDAL's driver model: one folder per format under lib/formats
 * (`<name>/definition.ts`: what it is; `<name>/write.ts`: its writer), listed once in
 * lib/formats/registry.ts, from which the API's enums, media types, extensions and defaults are
 * derived. Definitions are plain data, so the browser can load them without any writer.
 */

/** Kind of a result: a layer (features) or a table (rows). */
export type TResultKind = "layer" | "table";

export interface TFormatDefinition<N extends string = string> {
  /** The name callers use (a run request's `formats`, `?format=`). */
  name: N;
  /** The result kinds it writes. */
  kinds: readonly TResultKind[];
  /** HTTP media type of its files. */
  mediaType: string;
  /** File name extension, without the dot. */
  extension: string;
  /** True for a binary file (documented as such in OpenAPI), false for text. */
  binary: boolean;
  /** What a file in this format is, for docs: one sentence. */
  summary: string;
}

/** A format definition, its name kept as a literal type. */
export function defineFormat<const N extends string>(definition: TFormatDefinition<N>): TFormatDefinition<N> {
  return definition;
}
