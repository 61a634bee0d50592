/**
 * Who is calling, as plain data: the domain's run functions take one of these and never
 * an HTTP request, a session or an MCP context.
 *
 * - `TKeyScope`: an API key's consumer calling one published API in one environment
 *   (HTTP `/public/api/...` and MCP). Sees only its own runs of that API there; a run it
 *   starts counts one ETL run and one API request.
 * - `TDesignerScope`: a signed-in designer in a workspace (Try it in the design tool).
 *   Sees only their own Try-it runs in that workspace; a run counts one ETL run and its
 *   processing time, never an API request.
 */
import type { TFlowVersion } from "@/lib/flows/definition";

export interface TKeyScope {
  kind: "key";
  consumerId: string;
  flowApiId: string;
  environmentId: string;
}

export interface TDesignerScope {
  kind: "designer";
  userId: string;
  workspaceId: string;
}

export type TRunScope = TKeyScope | TDesignerScope;

/**
 * What a new run executes: a flow version of a Flow API in a workspace, through a release
 * (published calls) or without one (Try it on a draft or a chosen version).
 */
export interface TRunTarget {
  workspaceId: string;
  flowApiId: string;
  flowVersionId: string;
  flowVersionNumber: number;
  releaseId: string | null;
  flow: TFlowVersion;
}

/**
 * What a designer's preview runs (lib/runs/preview-run.ts): a flow document of the workspace
 * that is not saved anywhere, stored with the run as its snapshot. No API, version or release.
 */
export interface TPreviewTarget {
  workspaceId: string;
  flowApiId: null;
  flowVersionId: null;
  releaseId: null;
  /** The flow the run executes (the document with a result per step), stored as the run's `flowDocument`. */
  flow: TFlowVersion;
  preview: true;
}

/** The `{organization, environment, api}` slugs of a published API's address. */
export interface TApiPath {
  organization: string;
  environment: string;
  api: string;
}

/** Path of a published API's base: `/public/api/{organization}/{environment}/{api}`. */
export function apiBasePath(p: TApiPath): string {
  return `/public/api/${p.organization}/${p.environment}/${p.api}`;
}

/**
 * A console admin's place: one environment of one organization (the serving console).
 * Console domain functions (lib/consumers, lib/keys, lib/grants, ...) take this and treat
 * anything of another environment as not found.
 */
export interface TEnvironmentRef {
  organizationId: string;
  environmentId: string;
}
