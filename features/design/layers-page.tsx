/** `/design/{organization}/{workspace}/layers`: the workspace's layers, "Add layer", and imports still working or failed lately. */
import Link from "next/link";
import { LayersIcon } from "lucide-react";
import { pageWorkspace } from "@/lib/auth/page-guard";
import { listLayers } from "@/lib/layers/list-layers";
import { Badge } from "@/components/ui/badge";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { EmptyState } from "@/features/shell/empty-state";
import { PageHeader } from "@/features/shell/page-header";
import { designPath } from "@/features/shell/routes";
import { UploadLayerDialog } from "@/features/design/upload-layer-dialog";
import { LayerImports } from "@/features/design/layer-imports";
import { listLayerImports } from "@/lib/layers/layer-imports";
import type { TDesignParams } from "@/features/design/design-layout";
import { designTitle } from "@/features/shell/page-title";

export async function generateMetadata({ params }: { params: Promise<TDesignParams> }) {
  return designTitle(await params, "layers");
}

export function formatBbox(b: number[]): string {
  return b.length === 4 ? b.map((x) => x.toFixed(2)).join(", ") : "—";
}

export default async function LayersPage({ params }: { params: Promise<TDesignParams> }) {
  const p = await params;
  const scope = await pageWorkspace(designPath(p.organization, p.workspace, "layers"), p);
  const base = designPath(scope.organizationSlug, scope.workspace.slug, "layers");
  const [layers, imports] = await Promise.all([listLayers(scope.designer), listLayerImports(scope.designer)]);
  return (
    <>
      <PageHeader
        title="Layers"
        description={`The workspace's feature layers and tables; requests name them by id. Workspace ${scope.workspace.name}.`}
        actions={<UploadLayerDialog organization={scope.organizationSlug} workspace={scope.workspace.slug} existingIds={layers.map((l) => l.id)} />}
      />
      <LayerImports organization={scope.organizationSlug} workspace={scope.workspace.slug} initial={imports} />
      {layers.length === 0 ? (
        <EmptyState icon={LayersIcon} title="No layers yet" description="Add a layer from a GeoJSON, CSV or GeoParquet file." />
      ) : (
        <div className="min-w-0 rounded-md border">
          <Table aria-label="Layers">
            <TableHeaderRow columns={["Name", "Kind", ["Items", "text-right"], "Bbox (W, S, E, N)", "Readable in", "Data version"]} />
            <TableBody>
              {layers.map((l) => (
                <TableRow key={l.id}>
                  <TableCell className="font-medium">
                    <Link className="underline-offset-4 hover:underline" href={`${base}/${l.id}`}>
                      {l.name}
                    </Link>
                    <span className="block font-mono text-xs text-muted-foreground">{l.id}</span>
                  </TableCell>
                  <TableCell>
                    <Badge variant="outline">{l.kind === "features" ? "features" : "table"}</Badge>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{l.itemCount.toLocaleString("en")}</TableCell>
                  <TableCell className="font-mono text-xs">{formatBbox(l.bbox)}</TableCell>
                  <TableCell>
                    {l.environments.length === 0 ? <span className="text-muted-foreground">no environment</span> : l.environments.join(", ")}
                  </TableCell>
                  <TableCell>{l.dataVersion}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </>
  );
}
