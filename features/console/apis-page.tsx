/**
 * `/console/{org}/{env}/apis`: the APIs the environment serves (release number, pinned flow
 * version, publish time, AI access, links to the design tool and the public docs page, the
 * API's Settings) and the layers the environment may read.
 */
import Link from "next/link";
import { ServerIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { TitledCard } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { EmptyState } from "@/features/shell/empty-state";
import { PageHeader } from "@/features/shell/page-header";
import { consolePath, designItemPath, docsPath } from "@/features/shell/routes";
import { listServedApis } from "@/lib/serving/list-served-apis";
import { listEnvironmentLayers } from "@/lib/serving/environment-layers";
import { consolePage } from "@/features/console/data";
import { formatTime } from "@/features/console/format";
import { LayersEditor } from "@/features/console/layers-editor";
import type { TConsoleParams } from "@/features/console/console-layout";
import { consoleTitle } from "@/features/shell/page-title";

export async function generateMetadata({ params }: { params: Promise<TConsoleParams> }) {
  return consoleTitle(await params, "apis");
}

export default async function ApisPage({ params }: { params: Promise<TConsoleParams> }) {
  const p = await params;
  const { scope, ref, organization, environment } = await consolePage(consolePath(p.organization, p.environment, "apis"), p);
  const [apis, layers] = await Promise.all([listServedApis(ref), listEnvironmentLayers(ref)]);
  return (
    <>
      <PageHeader title="APIs" description={`The APIs environment ${scope.environment.name} serves, with their releases.`} />
      <div className="grid gap-8">
        {apis.length === 0 ? (
          <EmptyState
            icon={ServerIcon}
            title="This environment serves no APIs yet"
            description="Designers publish a Flow API into an environment from the design tool; it appears here with its release."
          />
        ) : (
          <Table>
            <TableHeaderRow columns={["API", ["Release", "text-right"], ["Flow version", "text-right"], "Published", "AI assistants", "Links"]} />
            <TableBody>
              {apis.map((a) => (
                <TableRow key={a.flowApiId}>
                  <TableCell>
                    <div className="font-medium">{a.name}</div>
                    <div className="font-mono text-xs text-muted-foreground">{a.slug}</div>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">#{a.release.number}</TableCell>
                  <TableCell className="text-right tabular-nums">v{a.release.flowVersion}</TableCell>
                  <TableCell>{formatTime(a.release.publishedAt)}</TableCell>
                  <TableCell>{a.aiAccess ? <Badge variant="success">On</Badge> : <Badge variant="outline">Off</Badge>}</TableCell>
                  <TableCell>
                    <div className="flex flex-wrap gap-3 text-sm">
                      <Link className="underline underline-offset-4" href={`${consolePath(organization, environment, "apis")}/${a.slug}`}>
                        Settings<span className="sr-only"> of {a.name}</span>
                      </Link>
                      <Link className="underline underline-offset-4" href={designItemPath(organization, a.workspace.slug, "apis", a.flowApiId)}>
                        Design tool<span className="sr-only"> page of {a.name}</span>
                      </Link>
                      <Link className="underline underline-offset-4" href={docsPath(organization, environment, a.slug)}>
                        Docs<span className="sr-only"> of {a.name}</span>
                      </Link>
                    </div>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        <TitledCard
          title="Readable layers"
          description="Callers of this environment may name these layers as inputs (`layer_id`). A removed layer is refused from the next call on."
        >
          <LayersEditor organization={organization} environment={environment} layers={layers} />
        </TitledCard>
      </div>
    </>
  );
}
