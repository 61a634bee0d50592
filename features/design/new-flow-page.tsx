/** `/design/{organization}/{workspace}/flows/new`: a new flow, starting from an example document. */
import { pageWorkspace } from "@/lib/auth/page-guard";
import { CITIES_IN_AREA } from "@/lib/demo/flows";
import { PageHeader } from "@/features/shell/page-header";
import { designPath } from "@/features/shell/routes";
import { FlowWorkbench } from "@/features/design/canvas/flow-workbench";
import { stepCatalogue } from "@/lib/steps/catalogue";
import type { TDesignParams } from "@/features/design/design-layout";
import { designTitle } from "@/features/shell/page-title";
import { runLayerDefaults } from "@/features/design/data";

export async function generateMetadata({ params }: { params: Promise<TDesignParams> }) {
  return designTitle(await params, "flows", () => "New flow");
}

export default async function NewFlowPage({ params }: { params: Promise<TDesignParams> }) {
  const p = await params;
  const scope = await pageWorkspace(`${designPath(p.organization, p.workspace, "flows")}/new`, p);
  return (
    <>
      <PageHeader
        title="New flow"
        description="Name the flow and build its first version on the canvas or in JSON. The example below finds cities inside an area; change it as you need, or start empty."
      />
      <FlowWorkbench
        organization={scope.organizationSlug}
        workspace={scope.workspace.slug}
        initialText={JSON.stringify(CITIES_IN_AREA, null, 2)}
        nextVersion={1}
        flowsHref={designPath(scope.organizationSlug, scope.workspace.slug, "flows")}
        catalogue={stepCatalogue()}
        layerDefaults={await runLayerDefaults(scope)}
      />
    </>
  );
}
