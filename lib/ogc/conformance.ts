/**
 * The OGC API - Processes - Part 1: Core (OGC 18-062r2) door's fixed documents: the
 * conformance classes it declares, the link relations it uses, its landing page.
 */

const CONF = "http://www.opengis.net/spec/ogcapi-processes-1/1.0/conf/";

/** The conformance classes implemented (callback: the execute request's `subscriber`, lib/runs/run-webhooks.ts). */
export const OGC_CONFORMANCE = ["core", "ogc-process-description", "json", "oas30", "job-list", "dismiss", "callback"].map((c) => CONF + c);

/** Link relations of OGC API - Processes (OGC 18-062r2, section 5.2 and the link relation register). */
export const OGC_REL = {
  conformance: "http://www.opengis.net/def/rel/ogc/1.0/conformance",
  processes: "http://www.opengis.net/def/rel/ogc/1.0/processes",
  jobList: "http://www.opengis.net/def/rel/ogc/1.0/job-list",
  execute: "http://www.opengis.net/def/rel/ogc/1.0/execute",
  results: "http://www.opengis.net/def/rel/ogc/1.0/results",
} as const;

export interface TOgcLink {
  href: string;
  rel: string;
  type?: string;
  title?: string;
}

/** Path of the door of an environment: `/public/ogc/{organization}/{environment}`. */
export function ogcBasePath(p: { organization: string; environment: string }): string {
  return `/public/ogc/${p.organization}/${p.environment}`;
}

/** The landing page (`GET /`): where the API definition, conformance, processes and jobs are. */
export function landingPage(base: string, environment: string) {
  return {
    title: `Flow APIs of environment "${environment}" (OGC API - Processes)`,
    description: "Every Flow API published in this environment, as an OGC API - Processes process. Send your API key in the X-Api-Key header.",
    links: [
      { href: base, rel: "self", type: "application/json", title: "This document" },
      { href: `${base}/api`, rel: "service-desc", type: "application/vnd.oai.openapi+json;version=3.0", title: "The API definition" },
      { href: `${base}/conformance`, rel: OGC_REL.conformance, type: "application/json", title: "Conformance classes" },
      { href: `${base}/processes`, rel: OGC_REL.processes, type: "application/json", title: "The processes" },
      { href: `${base}/jobs`, rel: OGC_REL.jobList, type: "application/json", title: "Your jobs" },
    ] satisfies TOgcLink[],
  };
}
