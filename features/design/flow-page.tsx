/** `/design/{organization}/{workspace}/flows/{flowId}`: one flow: the editor (from the latest version), the graph, versions and APIs, trash / restore / delete. */
import Link from "next/link";
import { orNotFound, pageWorkspace } from "@/lib/auth/page-guard";
import { stepCatalogue } from "@/lib/steps/catalogue";
import { Badge } from "@/components/ui/badge";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { PageHeader } from "@/features/shell/page-header";
import { designPath } from "@/features/shell/routes";
import { FlowWorkbench } from "@/features/design/canvas/flow-workbench";
import { FlowGraph } from "@/features/design/flow-graph";
import { FlowStateActions } from "@/features/design/flow-state-actions";
import { formatTime } from "@/features/console/format";
import { flowDocumentText } from "@/features/design/flow-document-text";
import type { TDesignParams } from "@/features/design/design-layout";
import { flowOf, runLayerDefaults } from "@/features/design/data";
import { designTitle } from "@/features/shell/page-title";

type TFlowParams = TDesignParams & { flowId: string };

export async function generateMetadata({ params }: { params: Promise<TFlowParams> }) {
  const p = await params;
  return designTitle(p, "flows", async (scope) => (await flowOf(scope.workspace.id, p.flowId)).name);
}

export default async function FlowPage({ params }: { params: Promise<TFlowParams> }) {
  const p = await params;
  const scope = await pageWorkspace(`${designPath(p.organization, p.workspace, "flows")}/${p.flowId}`, p);
  const flow = await orNotFound(flowOf(scope.workspace.id, p.flowId));
  const base = designPath(scope.organizationSlug, scope.workspace.slug, "flows");
  const apisBase = designPath(scope.organizationSlug, scope.workspace.slug, "apis");
  const latest = flow.versions[0];
  const catalogue = stepCatalogue();
  const layerDefaults = await runLayerDefaults(scope);
  const state = flow.state === "trashed" ? "trashed" : "active";
  return (
    <>
      <PageHeader
        title={flow.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            {state === "active" ? <Badge variant="success">Active</Badge> : <Badge variant="warning">In trash</Badge>}
            <span>
              {flow.versions.length} version{flow.versions.length === 1 ? "" : "s"}
              {latest ? `, latest v${latest.version} saved ${formatTime(latest.createdAt)}` : ""}
            </span>
            <Link className="underline underline-offset-4" href={base}>
              All flows
            </Link>
          </span>
        }
        actions={
          <FlowStateActions
            organization={scope.organizationSlug}
            workspace={scope.workspace.slug}
            flowId={flow.id}
            flowName={flow.name}
            state={state}
            apiCount={flow.flowApis.length}
            flowsHref={base}
          />
        }
      />
      <Tabs defaultValue="editor" className="grid gap-4">
        <TabsList>
          <TabsTrigger value="editor">Editor</TabsTrigger>
          <TabsTrigger value="graph">Graph</TabsTrigger>
          <TabsTrigger value="versions">Versions and APIs</TabsTrigger>
        </TabsList>
        <TabsContent value="editor">
          <FlowWorkbench
            organization={scope.organizationSlug}
            workspace={scope.workspace.slug}
            flowId={flow.id}
            initialText={flowDocumentText(latest?.definition ?? {})}
            nextVersion={(latest?.version ?? 0) + 1}
            disabledReason={state === "trashed" ? "Restore the flow to save new versions." : null}
            flowsHref={base}
            catalogue={catalogue}
            layerDefaults={layerDefaults}
          />
        </TabsContent>
        <TabsContent value="graph">{latest ? <FlowGraph definition={latest.definition} catalogue={catalogue} /> : <p>No version saved yet.</p>}</TabsContent>
        <TabsContent value="versions" className="grid gap-6">
          <section className="grid gap-2">
            <h2 className="text-lg font-semibold">Versions</h2>
            <ol className="grid gap-1 text-sm" aria-label="Versions">
              {flow.versions.map((v) => (
                <li key={v.id}>
                  <span className="font-medium">Version {v.version}</span> <span className="text-muted-foreground">saved {formatTime(v.createdAt)}</span>
                </li>
              ))}
            </ol>
          </section>
          <section className="grid gap-2">
            <h2 className="text-lg font-semibold">APIs using this flow</h2>
            {flow.flowApis.length === 0 ? (
              <p className="text-sm text-muted-foreground">None yet. Create one under APIs.</p>
            ) : (
              <ul className="grid gap-1 text-sm">
                {flow.flowApis.map((a) => (
                  <li key={a.id}>
                    <Link className="underline underline-offset-4" href={`${apisBase}/${a.id}`}>
                      {a.name}
                    </Link>{" "}
                    <span className="text-muted-foreground">({a.status})</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </TabsContent>
      </Tabs>
    </>
  );
}
