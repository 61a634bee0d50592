/** `/console/{org}/{environment}/settings`: the environment's CORS origins and outbound allow-list. */
import { TitledCard } from "@/components/ui/card";
import { readCorsOrigins } from "@/lib/keys/set-cors-origins";
import { pageEnvironment } from "@/lib/auth/page-guard";
import { PageHeader } from "@/features/shell/page-header";
import { consolePath } from "@/features/shell/routes";
import { EnvironmentListForm } from "@/features/console/environment-list-form";
import { readOutboundHosts } from "@/lib/net/outbound-hosts";
import type { TConsoleParams } from "@/features/console/console-layout";
import { consoleTitle } from "@/features/shell/page-title";

export async function generateMetadata({ params }: { params: Promise<TConsoleParams> }) {
  return consoleTitle(await params, "settings");
}

export default async function SettingsPage({ params }: { params: Promise<TConsoleParams> }) {
  const p = await params;
  const scope = await pageEnvironment(consolePath(p.organization, p.environment, "settings"), p);
  const [origins, hosts] = await Promise.all([readCorsOrigins(scope.environment.id), readOutboundHosts(scope.environment.id)]);
  return (
    <>
      <PageHeader title="Settings" description={`Environment ${scope.environment.name}.`} />
      <TitledCard title="Browser access (CORS)" description="Web pages on these origins may call this environment's public API from a browser, with a key.">
        <EnvironmentListForm organization={scope.organizationSlug} environment={scope.environment.slug} list="origins" items={origins} />
      </TitledCard>
      <TitledCard
        className="mt-6"
        title="Outbound requests (webhooks, inputs by reference)"
        description="Webhooks, run callbacks and inputs given by URL (href) reach only https URLs on public addresses, unless their host is listed here."
      >
        <EnvironmentListForm organization={scope.organizationSlug} environment={scope.environment.slug} list="hosts" items={hosts} />
      </TitledCard>
    </>
  );
}
