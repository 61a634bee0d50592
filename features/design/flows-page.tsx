/**
 * `/design/{organization}/{workspace}/flows`: the workspace's flows with their numbered
 * versions, state and the APIs that use them; flows in the trash listed apart.
 */
import Link from "next/link";
import { PlusIcon, WorkflowIcon } from "lucide-react";
import { pageWorkspace } from "@/lib/auth/page-guard";
import { listFlows, type TFlowListEntry } from "@/lib/flows/list-flows";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { EmptyState } from "@/features/shell/empty-state";
import { PageHeader } from "@/features/shell/page-header";
import { designPath } from "@/features/shell/routes";
import type { TDesignParams } from "@/features/design/design-layout";
import { designTitle } from "@/features/shell/page-title";

export async function generateMetadata({ params }: { params: Promise<TDesignParams> }) {
  return designTitle(await params, "flows");
}
import { formatTime } from "@/features/console/format";

export default async function FlowsPage({ params }: { params: Promise<TDesignParams> }) {
  const p = await params;
  const scope = await pageWorkspace(designPath(p.organization, p.workspace, "flows"), p);
  const base = designPath(scope.organizationSlug, scope.workspace.slug, "flows");
  const apisBase = designPath(scope.organizationSlug, scope.workspace.slug, "apis");
  const flows = await listFlows(scope.designer);
  const active = flows.filter((f) => f.state === "active");
  const trashed = flows.filter((f) => f.state === "trashed");
  const newButton = (
    <Button asChild>
      <Link href={`${base}/new`}>
        <PlusIcon aria-hidden="true" /> New flow
      </Link>
    </Button>
  );
  return (
    <>
      <PageHeader
        title="Flows"
        description={`Reusable flows with their numbered, immutable versions. Workspace ${scope.workspace.name}.`}
        actions={newButton}
      />
      {active.length === 0 ? (
        <EmptyState
          icon={WorkflowIcon}
          title="No flows yet"
          description="A flow reads inputs, runs steps and returns results. Create one, then publish it as a Flow API."
        />
      ) : (
        <FlowTable flows={active} base={base} apisBase={apisBase} caption="Active flows" />
      )}
      {trashed.length > 0 ? (
        <section className="mt-10 grid min-w-0 grid-cols-1 gap-3">
          <h2 className="text-lg font-semibold">Trash</h2>
          <p className="text-sm text-muted-foreground">Flows in the trash can be restored or deleted permanently. Their published APIs keep serving.</p>
          <FlowTable flows={trashed} base={base} apisBase={apisBase} caption="Flows in the trash" />
        </section>
      ) : null}
    </>
  );
}

function FlowTable({ flows, base, apisBase, caption }: { flows: TFlowListEntry[]; base: string; apisBase: string; caption: string }) {
  return (
    <div className="min-w-0 rounded-md border">
      <Table aria-label={caption}>
        <TableHeaderRow columns={["Name", "Versions", "State", "APIs using it", "Latest saved"]} />
        <TableBody>
          {flows.map((f) => (
            <TableRow key={f.id}>
              <TableCell className="font-medium">
                <Link className="underline-offset-4 hover:underline" href={`${base}/${f.id}`}>
                  {f.name}
                </Link>
              </TableCell>
              <TableCell>
                {f.versions.length === 0 ? "none" : `v${f.versions[0]!.version}`}
                <span className="text-muted-foreground"> ({f.versions.length} saved)</span>
              </TableCell>
              <TableCell>{f.state === "active" ? <Badge variant="success">Active</Badge> : <Badge variant="warning">In trash</Badge>}</TableCell>
              <TableCell>
                {f.apis.length === 0 ? (
                  <span className="text-muted-foreground">none</span>
                ) : (
                  <ul className="flex flex-wrap gap-2">
                    {f.apis.map((a) => (
                      <li key={a.id}>
                        <Link className="underline-offset-4 hover:underline" href={`${apisBase}/${a.id}`}>
                          {a.name}
                        </Link>
                      </li>
                    ))}
                  </ul>
                )}
              </TableCell>
              <TableCell className="text-muted-foreground">{formatTime(f.versions[0]?.createdAt)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
