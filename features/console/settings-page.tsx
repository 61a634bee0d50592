/** `/console/{org}/{environment}/settings`: the environment's CORS origins. */
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { readCorsOrigins } from "@/lib/keys/set-cors-origins";
import { pageEnvironment } from "@/lib/auth/page-guard";
import { PageHeader } from "@/features/shell/page-header";
import { consolePath } from "@/features/shell/routes";
import { CorsOriginsForm } from "@/features/console/cors-origins-form";
import type { TConsoleParams } from "@/features/console/console-layout";

export default async function SettingsPage({ params }: { params: Promise<TConsoleParams> }) {
  const p = await params;
  const scope = await pageEnvironment(consolePath(p.organization, p.environment, "settings"), p);
  const origins = await readCorsOrigins(scope.environment.id);
  return (
    <>
      <PageHeader title="Settings" description={`Environment ${scope.environment.name}.`} />
      <Card>
        <CardHeader>
          <CardTitle>Browser access (CORS)</CardTitle>
          <CardDescription>Web pages on these origins may call this environment&apos;s public API from a browser, with a key.</CardDescription>
        </CardHeader>
        <CardContent>
          <CorsOriginsForm organization={scope.organizationSlug} environment={scope.environment.slug} origins={origins} />
        </CardContent>
      </Card>
    </>
  );
}
