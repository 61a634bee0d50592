/** `/design/{organization}/{workspace}/layers/{layerId}`: one layer with its facts and a map or table preview; rename and delete it. */
import Link from "next/link";
import { orNotFound, pageWorkspace } from "@/lib/auth/page-guard";
import { layerUsage } from "@/lib/layers/layer-usage";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/features/shell/page-header";
import { designPath } from "@/features/shell/routes";
import { LayerPreview } from "@/features/design/layer-preview";
import { formatBbox } from "@/features/design/layers-page";
import { formatTime } from "@/features/console/format";
import type { TDesignParams } from "@/features/design/design-layout";
import { layersOf } from "@/features/design/data";
import { designTitle } from "@/features/shell/page-title";

type TLayerParams = TDesignParams & { layerId: string };

export async function generateMetadata({ params }: { params: Promise<TLayerParams> }) {
  const p = await params;
  return designTitle(p, "layers", async (scope) => (await layersOf(scope.workspace.id)).find((l) => l.id === p.layerId)?.name);
}
import { DeleteLayerButton, RenameLayerButton } from "@/features/design/layer-actions";

export default async function LayerPage({ params }: { params: Promise<TLayerParams> }) {
  const p = await params;
  const scope = await pageWorkspace(`${designPath(p.organization, p.workspace, "layers")}/${p.layerId}`, p);
  const [layers, usage] = await Promise.all([layersOf(scope.workspace.id), layerUsage(scope.designer, p.layerId)]);
  const layer = await orNotFound(layers.find((l) => l.id === p.layerId));
  const ref = { organization: scope.organizationSlug, workspace: scope.workspace.slug, id: layer.id, name: layer.name };
  const facts: [term: string, value: string | number, className?: string][] = [
    [layer.kind === "features" ? "Features" : "Rows", layer.itemCount.toLocaleString("en"), "font-medium"],
    ["Bbox (W, S, E, N)", formatBbox(layer.bbox), "font-mono text-xs"],
    ["Readable in", layer.environments.length === 0 ? "no environment" : layer.environments.join(", ")],
    ["Data version", layer.dataVersion],
    ["Updated", formatTime(layer.updatedAt)],
  ];
  return (
    <>
      <PageHeader
        title={layer.name}
        actions={
          <>
            <RenameLayerButton layer={ref} />
            <DeleteLayerButton layer={ref} readers={usage} layersHref={designPath(scope.organizationSlug, scope.workspace.slug, "layers")} />
          </>
        }
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-mono">{layer.id}</span>
            <Badge variant="outline">{layer.kind}</Badge>
            <Link className="underline underline-offset-4" href={designPath(scope.organizationSlug, scope.workspace.slug, "layers")}>
              All layers
            </Link>
          </span>
        }
      />
      <dl className="mb-6 grid grid-cols-2 gap-4 text-sm sm:grid-cols-5">
        {facts.map(([term, value, className]) => (
          <div key={term}>
            <dt className="text-muted-foreground">{term}</dt>
            <dd className={className}>{value}</dd>
          </div>
        ))}
      </dl>
      <LayerPreview url={`/api/design/${scope.organizationSlug}/${scope.workspace.slug}/layers/${layer.id}/preview`} name={layer.name} />
    </>
  );
}
