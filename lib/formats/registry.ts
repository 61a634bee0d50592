/**
 * The result formats: every format the service writes, listed once (each defined in its folder,
 * lib/formats/<name>/definition.ts); the names, per-kind lists, defaults, media types and
 * extensions that the API, its documents and the design tool use are derived from this list.
 * Writers: lib/formats/encode-result.ts. See design.md "Formats".
 */
import { z } from "zod";
import type { TFormatDefinition, TResultKind } from "./define-format";
import { csv } from "./csv/definition";
import { geojson } from "./geojson/definition";
import { geoparquet } from "./geoparquet/definition";
import { parquet } from "./parquet/definition";

/** Every result format. Per kind, the first format listed that writes it is that kind's default. */
export const FORMATS = [geojson, geoparquet, csv, parquet] as const;

export type TResultFormat = (typeof FORMATS)[number]["name"];

type TNames = readonly [TResultFormat, ...TResultFormat[]];

/** Every format name, in the order of `FORMATS`. */
export const FORMAT_NAMES = FORMATS.map((f) => f.name) as unknown as TNames;

/** A format name, any kind. */
export const ZResultFormat = z.enum(FORMAT_NAMES);

/** Each format's definition by name. */
export const FORMAT_INFO = Object.fromEntries(FORMATS.map((f) => [f.name, f])) as Record<TResultFormat, TFormatDefinition<TResultFormat>>;

function namesOf(kind: TResultKind): TNames {
  return FORMATS.filter((f) => (f.kinds as readonly string[]).includes(kind)).map((f) => f.name) as unknown as TNames;
}

/** Formats a result of each kind may be written in (the first one is the default). */
export const FORMATS_BY_KIND: Record<TResultKind, TNames> = { layer: namesOf("layer"), table: namesOf("table") };

/** The format of a result whose run did not ask for one. */
export const DEFAULT_FORMAT: Record<TResultKind, TResultFormat> = { layer: FORMATS_BY_KIND.layer[0], table: FORMATS_BY_KIND.table[0] };

/** True when `format` is a known format name (any kind). */
export function isResultFormat(format: unknown): format is TResultFormat {
  return typeof format === "string" && Object.hasOwn(FORMAT_INFO, format);
}

/** True when `format` can write a result of `kind`. */
export function formatFitsKind(kind: TResultKind, format: string): format is TResultFormat {
  return (FORMATS_BY_KIND[kind] as readonly string[]).includes(format);
}
