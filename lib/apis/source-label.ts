/**
 * The source label of a Flow API, from the state of its flow (spec, "Lifecycle of the API"):
 * flow in the trash → "Source in trash" (publishing blocked until restored); flow
 * permanently deleted (or gone) → "Needs a source" (publishing impossible). An active
 * flow gives no label. The serving side never looks at this: releases keep serving.
 */
export type TSourceLabel = "Source in trash" | "Needs a source";

export interface TSourceStatus {
  label: TSourceLabel | null;
  /** Why publishing is refused, or null when it may go ahead. */
  publishBlockedReason: string | null;
}

export function sourceStatus(flow: { state: "active" | "trashed" | "deleted"; name: string } | null): TSourceStatus {
  if (!flow || flow.state === "deleted") {
    return { label: "Needs a source", publishBlockedReason: "The source flow was deleted permanently: this API has no flow to publish from." };
  }
  if (flow.state === "trashed") {
    return { label: "Source in trash", publishBlockedReason: `The source flow "${flow.name}" is in the trash: restore it to publish again.` };
  }
  return { label: null, publishBlockedReason: null };
}
