/**
 * The route map of the design tool and the serving console (features/README.md lists it):
 *
 *   /design/{organization}/{workspace}/{flows|layers|apis}          designers and admins
 *   /console/{organization}/{environment}/{apis|consumers|keys|usage|runs|ai-access|settings}   admins
 *
 * Shared by server and client components: plain data and path builders only.
 */
export const DESIGN_SECTIONS = [
  { slug: "flows", label: "Flows" },
  { slug: "layers", label: "Layers" },
  { slug: "apis", label: "APIs" },
] as const;

export const CONSOLE_SECTIONS = [
  { slug: "apis", label: "APIs" },
  { slug: "consumers", label: "Consumers" },
  { slug: "keys", label: "Keys" },
  { slug: "usage", label: "Usage" },
  { slug: "runs", label: "Runs" },
  { slug: "ai-access", label: "AI access" },
  { slug: "settings", label: "Settings" },
] as const;

export type TDesignSection = (typeof DESIGN_SECTIONS)[number]["slug"];
export type TConsoleSection = (typeof CONSOLE_SECTIONS)[number]["slug"];

export function designPath(organization: string, workspace: string, section: TDesignSection = "flows"): string {
  return `/design/${organization}/${workspace}/${section}`;
}

export function consolePath(organization: string, environment: string, section: TConsoleSection = "apis"): string {
  return `/console/${organization}/${environment}/${section}`;
}

/**
 * One item of a design section: a flow or an API by its id (`flowId`, `flowApiId`; never an
 * API's slug), a layer by its layer id.
 */
export function designItemPath(organization: string, workspace: string, section: TDesignSection, id: string): string {
  return `${designPath(organization, workspace, section)}/${encodeURIComponent(id)}`;
}

/** The public docs page of a published API. */
export function docsPath(organization: string, environment: string, api: string): string {
  return `/docs/${organization}/${environment}/${api}`;
}

/** A same-origin path to return to after signing in; anything else becomes `fallback`. */
export function safeCallbackPath(value: unknown, fallback = "/design"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (value.startsWith("/sign-in") || value.startsWith("/api/auth")) return fallback;
  return value;
}
