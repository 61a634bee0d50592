/**
 * What every console page starts with: the admin check of the page (`pageEnvironment`,
 * redirect / "not allowed" / 404) and the plain `TEnvironmentRef` the console's domain
 * functions take.
 */
import "server-only";
import { cache } from "react";
import { headers } from "next/headers";
import { pageEnvironment } from "@/lib/auth/page-guard";
import { env } from "@/lib/env";
import { publicOrigin } from "@/lib/http/request-origin";
import type { TEnvironmentRef } from "@/lib/runs/scope";
import { getConsumerOrThrow } from "@/lib/consumers/get-consumer-or-throw";
import { getEnvironmentRun } from "@/lib/runs/get-environment-run";
import { listServedApis } from "@/lib/serving/list-served-apis";
import type { TConsoleParams } from "@/features/console/console-layout";

export async function consolePage(path: string, p: TConsoleParams) {
  const scope = await pageEnvironment(path, p);
  const ref: TEnvironmentRef = { organizationId: scope.organizationId, environmentId: scope.environment.id };
  return { scope, ref, organization: scope.organizationSlug, environment: scope.environment.slug };
}

/** The base URL callers use (PUBLIC_BASE_URL, else the request's origin), for absolute addresses shown to admins. */
export async function publicBaseUrl(): Promise<string> {
  return publicOrigin(await headers(), "http://localhost:3000", env().PUBLIC_BASE_URL).origin;
}

/** `listServedApis` of one environment, once per request (the API settings page and its title). */
export const servedApisOf = cache((organizationId: string, environmentId: string) => listServedApis({ organizationId, environmentId }));

/** `getConsumerOrThrow`, once per request. */
export const consumerOf = cache((organizationId: string, environmentId: string, consumerId: string) =>
  getConsumerOrThrow({ organizationId, environmentId }, consumerId),
);

/** `getEnvironmentRun`, once per request. */
export const environmentRunOf = cache((organizationId: string, environmentId: string, runId: string) =>
  getEnvironmentRun({ organizationId, environmentId }, runId),
);
