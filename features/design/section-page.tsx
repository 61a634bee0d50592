/**
 * A design-tool section as an empty, navigable page (the shell of issue 9). Issue 10
 * replaces each with the real page; keep the `pageWorkspace` check at the top of each.
 */
import type { LucideIcon } from "lucide-react";
import { pageWorkspace } from "@/lib/auth/page-guard";
import { EmptyState } from "@/features/shell/empty-state";
import { PageHeader } from "@/features/shell/page-header";
import { DESIGN_SECTIONS, designPath, type TDesignSection } from "@/features/shell/routes";
import type { TDesignParams } from "@/features/design/design-layout";

export function designSectionPage(section: TDesignSection, empty: { icon: LucideIcon; title: string; description: string }) {
  const meta = DESIGN_SECTIONS.find((s) => s.slug === section)!;
  return async function DesignSectionPage({ params }: { params: Promise<TDesignParams> }) {
    const p = await params;
    await pageWorkspace(designPath(p.organization, p.workspace, section), p);
    return (
      <>
        <PageHeader title={meta.label} description={meta.description} />
        <EmptyState icon={empty.icon} title={empty.title} description={empty.description} />
      </>
    );
  };
}
