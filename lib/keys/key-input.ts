/**
 * The rules for a new key's options, shared by the console's form and the domain:
 * `name` (optional, at most 100 characters; "Key" when empty), `expiresAt` (optional, in the
 * future), and a rotation's `overlapMinutes` (0 to 30 days: how long the old key keeps working
 * beside the new one).
 */
import { z } from "zod";

export const MAX_OVERLAP_MINUTES = 30 * 24 * 60;

export const ZKeyName = z.string().trim().max(100, "At most 100 characters.");
export const ZOverlapMinutes = z.number().int().min(0).max(MAX_OVERLAP_MINUTES, "At most 30 days.");
