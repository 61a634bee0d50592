/** zod schemas of the design tool's forms and server actions. Flow documents travel as JSON text, validated on the server (lib/flows/validate-flow-version.ts). */
import { z } from "zod";

export const ZWorkspaceRef = z.object({ organization: z.string().min(1), workspace: z.string().min(1) });

export const ZFlowDocumentText = ZWorkspaceRef.extend({ text: z.string().max(1_000_000) });

export const ZCreateFlow = ZWorkspaceRef.extend({
  name: z.string().trim().min(1, "A flow needs a name.").max(100),
  description: z.string().max(500).optional(),
  text: z.string().max(1_000_000),
});

export const ZSaveFlowVersion = ZWorkspaceRef.extend({ flowId: z.string().uuid(), text: z.string().max(1_000_000) });

export const ZFlowRef = ZWorkspaceRef.extend({ flowId: z.string().uuid() });

export const ZCreateApi = ZWorkspaceRef.extend({
  kind: z.literal("flow"),
  flowId: z.string().uuid("Choose a flow."),
  name: z.string().trim().min(1, "An API needs a name.").max(100),
  slug: z
    .string()
    .trim()
    .min(1, "An API needs a slug.")
    .max(63)
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Lower-case letters, digits and single hyphens, e.g. cities-in-area."),
});

export const ZPublish = ZWorkspaceRef.extend({ flowApiId: z.string().uuid(), environmentId: z.string().uuid(), flowVersionId: z.string().uuid() });

export const ZFlowApiRef = ZWorkspaceRef.extend({ flowApiId: z.string().uuid() });

export const ZUnpublish = ZWorkspaceRef.extend({ flowApiId: z.string().uuid(), environmentId: z.string().uuid() });

export const ZSetApiSource = ZWorkspaceRef.extend({ flowApiId: z.string().uuid(), flowId: z.string().uuid() });

export const ZStartTry = ZWorkspaceRef.extend({ flowApiId: z.string().uuid(), flowVersionId: z.string().uuid().optional(), request: z.unknown() });

export const ZRunRef = ZWorkspaceRef.extend({ runId: z.string().uuid() });

/** A name as a slug (lower-case letters, digits, single hyphens; at most 63 characters): the suggested layer id or API slug. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63);
}
