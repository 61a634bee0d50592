/**
 * The route map of the design tool and the serving console (features/README.md lists it):
 *
 *   /design/{organization}/{workspace}/{flows|layers|apis}          designers and admins
 *   /console/{organization}/{environment}/{apis|consumers|keys|usage|runs|ai-access|settings}   admins
 *
 * Shared by server and client components: plain data and path builders only.
 */
export const DESIGN_SECTIONS = [
  { slug: "flows", label: "Flows", description: "Reusable flows with their numbered versions." },
  { slug: "layers", label: "Layers", description: "The workspace's feature and table layers." },
  { slug: "apis", label: "APIs", description: "Flow APIs: drafts, Try it, publish and republish." },
] as const;

export const CONSOLE_SECTIONS = [
  { slug: "apis", label: "APIs", description: "The APIs this environment serves, with their releases." },
  { slug: "consumers", label: "Consumers", description: "Who may call which API (access grants)." },
  { slug: "keys", label: "Keys", description: "API keys of the consumers: create, revoke, rotate." },
  { slug: "usage", label: "Usage", description: "ETL runs, processing time and API requests." },
  { slug: "runs", label: "Runs", description: "The environment's runs, with filters and details." },
  { slug: "ai-access", label: "AI access", description: "MCP: which APIs AI assistants may use, and how to connect a client." },
  {
    slug: "settings",
    label: "Settings",
    description: "The environment's settings: which web pages may call its API from a browser, which private hosts webhooks may reach.",
  },
] as const;

export type TDesignSection = (typeof DESIGN_SECTIONS)[number]["slug"];
export type TConsoleSection = (typeof CONSOLE_SECTIONS)[number]["slug"];

export function designPath(organization: string, workspace: string, section: TDesignSection = "flows"): string {
  return `/design/${organization}/${workspace}/${section}`;
}

export function consolePath(organization: string, environment: string, section: TConsoleSection = "apis"): string {
  return `/console/${organization}/${environment}/${section}`;
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
