/**
 * The rules for a consumer's name (shared by the console's form and the domain): 1 to 100
 * characters after trimming. Its slug (stable, `[a-z0-9-]`, unique per environment) is made
 * from the name once, at creation.
 */
import { z } from "zod";

export const ZConsumerName = z.string().trim().min(1, "Give the consumer a name.").max(100, "At most 100 characters.");

/** `Acme Maps GmbH` -> `acme-maps-gmbh`; empty when the name has no letters or digits. */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/g, "");
}
