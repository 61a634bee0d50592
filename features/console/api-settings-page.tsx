/**
 * `/console/{org}/{env}/apis/{api}`: one served API's Settings: its release and the switch
 * "Available to AI assistants" (disabled with the reason where it cannot be on).
 */
import Link from "next/link";
import { orNotFound } from "@/lib/auth/page-guard";
import { TitledCard } from "@/components/ui/card";
import { PageHeader } from "@/features/shell/page-header";
import { consolePath, designItemPath, docsPath } from "@/features/shell/routes";
import { consolePage, servedApisOf } from "@/features/console/data";
import { formatTime } from "@/features/console/format";
import { AiSwitch } from "@/features/console/ai-switch";
import type { TConsoleParams } from "@/features/console/console-layout";
import { consoleTitle } from "@/features/shell/page-title";

type TApiParams = TConsoleParams & { api: string };

export async function generateMetadata({ params }: { params: Promise<TApiParams> }) {
  const p = await params;
  return consoleTitle(p, "apis", async (scope) => (await servedApisOf(scope.organizationId, scope.environment.id)).find((a) => a.slug === p.api)?.name);
}

export default async function ApiSettingsPage({ params }: { params: Promise<TApiParams> }) {
  const p = await params;
  const { ref, organization, environment } = await consolePage(`${consolePath(p.organization, p.environment, "apis")}/${p.api}`, p);
  const api = await orNotFound((await servedApisOf(ref.organizationId, ref.environmentId)).find((a) => a.slug === p.api));
  return (
    <>
      <PageHeader title={api.name} description={`Settings of API ${api.slug} in this environment.`} />
      <div className="grid gap-6 md:grid-cols-2">
        <TitledCard title="Release" description="What callers of this environment run.">
          <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
            <dt className="text-muted-foreground">Release</dt>
            <dd>#{api.release.number}</dd>
            <dt className="text-muted-foreground">Flow version</dt>
            <dd>
              v{api.release.flowVersion}
              {api.flowName ? ` of ${api.flowName}` : ""}
            </dd>
            <dt className="text-muted-foreground">Published</dt>
            <dd>{formatTime(api.release.publishedAt)}</dd>
            <dt className="text-muted-foreground">Workspace</dt>
            <dd>
              {api.workspace.name} ({api.workspace.planName} plan)
            </dd>
          </dl>
          <div className="mt-4 flex gap-4 text-sm">
            <Link className="underline underline-offset-4" href={designItemPath(organization, api.workspace.slug, "apis", api.flowApiId)}>
              Open in the design tool
            </Link>
            <Link className="underline underline-offset-4" href={docsPath(organization, environment, api.slug)}>
              Public docs
            </Link>
          </div>
        </TitledCard>
        <TitledCard
          title="Settings"
          description="AI assistants (MCP clients) see this API as a tool when the switch is on and their key's consumer is granted the API."
          contentClassName="grid gap-4"
        >
          <AiSwitch organization={organization} environment={environment} api={api} />
          <Link className="text-sm underline underline-offset-4" href={consolePath(organization, environment, "ai-access")}>
            Connect an AI client
          </Link>
        </TitledCard>
      </div>
    </>
  );
}
