/**
 * A console section as an empty, navigable page (the shell of issue 9). Issue 11 replaces
 * each with the real page; keep the `pageEnvironment` check (admins only) at the top.
 */
import type { LucideIcon } from "lucide-react";
import { pageEnvironment } from "@/lib/auth/page-guard";
import { EmptyState } from "@/features/shell/empty-state";
import { PageHeader } from "@/features/shell/page-header";
import { CONSOLE_SECTIONS, consolePath, type TConsoleSection } from "@/features/shell/routes";
import type { TConsoleParams } from "@/features/console/console-layout";

export function consoleSectionPage(section: TConsoleSection, empty: { icon: LucideIcon; title: string; description: string }) {
  const meta = CONSOLE_SECTIONS.find((s) => s.slug === section)!;
  return async function ConsoleSectionPage({ params }: { params: Promise<TConsoleParams> }) {
    const p = await params;
    await pageEnvironment(consolePath(p.organization, p.environment, section), p);
    return (
      <>
        <PageHeader title={meta.label} description={meta.description} />
        <EmptyState icon={empty.icon} title={empty.title} description={empty.description} />
      </>
    );
  };
}
