/** `/design/{organization}/{workspace}/apis`: the workspace's Flow APIs, the plan's limit and "New API". */
import Link from "next/link";
import { PlugZapIcon } from "lucide-react";
import { pageWorkspace } from "@/lib/auth/page-guard";
import { listFlowApis } from "@/lib/apis/list-flow-apis";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { EmptyState } from "@/features/shell/empty-state";
import { PageHeader } from "@/features/shell/page-header";
import { designPath } from "@/features/shell/routes";
import { listFlowChoices } from "@/features/design/data";
import { NewApiDialog } from "@/features/design/new-api-dialog";
import type { TDesignParams } from "@/features/design/design-layout";
import { designTitle } from "@/features/shell/page-title";

export async function generateMetadata({ params }: { params: Promise<TDesignParams> }) {
  return designTitle(await params, "apis");
}

export default async function ApisPage({ params }: { params: Promise<TDesignParams> }) {
  const p = await params;
  const scope = await pageWorkspace(designPath(p.organization, p.workspace, "apis"), p);
  const base = designPath(scope.organizationSlug, scope.workspace.slug, "apis");
  const [{ apis, plan }, flows] = await Promise.all([listFlowApis(scope.designer), listFlowChoices(scope.designer)]);
  return (
    <>
      <PageHeader
        title="APIs"
        description={
          <>
            Flow APIs: drafts, Try it, publish and republish. Plan {plan.name}:{" "}
            <span data-testid="plan-usage">
              {plan.used} of {plan.maxFlowApis} APIs used
            </span>{" "}
            (drafts count).
          </>
        }
        actions={<NewApiDialog organization={scope.organizationSlug} workspace={scope.workspace.slug} flows={flows} apisHref={base} />}
      />
      {apis.length === 0 ? (
        <EmptyState
          icon={PlugZapIcon}
          title="No APIs yet"
          description="A Flow API turns a flow into an HTTP API. Create a draft with New API, Try it, then publish it."
        />
      ) : (
        <div className="min-w-0 rounded-md border">
          <Table aria-label="Flow APIs">
            <TableHeaderRow columns={["Name", "Status", "Source flow", "Serving"]} />
            <TableBody>
              {apis.map((a) => (
                <TableRow key={a.id}>
                  <TableCell className="font-medium">
                    <Link className="underline-offset-4 hover:underline" href={`${base}/${a.id}`}>
                      {a.name}
                    </Link>
                    <span className="block font-mono text-xs text-muted-foreground">{a.slug}</span>
                  </TableCell>
                  <TableCell>{a.status === "published" ? <Badge variant="success">Published</Badge> : <Badge variant="secondary">Draft</Badge>}</TableCell>
                  <TableCell>
                    <span className="mr-2">{a.flow && a.flow.state !== "deleted" ? a.flow.name : "—"}</span>
                    {a.sourceLabel ? <Badge variant="warning">{a.sourceLabel}</Badge> : null}
                  </TableCell>
                  <TableCell>
                    {a.serving.length === 0 ? (
                      <span className="text-muted-foreground">nowhere</span>
                    ) : (
                      a.serving.map((s) => (
                        <span key={s.environment} className="mr-3">
                          {s.environment}: flow v{s.flowVersion}
                        </span>
                      ))
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </>
  );
}
