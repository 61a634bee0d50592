/**
 * The design tool's frame around every page of a workspace: header with the organization,
 * the workspace switcher and the sections (Flows, Layers, APIs).
 */
import type { ReactNode } from "react";
import { pageWorkspace, requestedPath } from "@/lib/auth/page-guard";
import { requireUser } from "@/lib/auth/session";
import { AppHeader } from "@/features/shell/app-header";
import { Main } from "@/features/shell/main";
import { PlaceSwitcher } from "@/features/shell/place-switcher";
import { SectionNav } from "@/features/shell/section-nav";
import { isAdminAnywhere, listWorkspaces } from "@/features/shell/data";
import { DESIGN_SECTIONS, designPath } from "@/features/shell/routes";

export type TDesignParams = { organization: string; workspace: string };

export default async function DesignLayout({ children, params }: { children: ReactNode; params: Promise<TDesignParams> }) {
  const p = await params;
  const scope = await pageWorkspace(await requestedPath(designPath(p.organization, p.workspace)), p);
  const user = await requireUser();
  const base = `/design/${scope.organizationSlug}`;
  const workspaces = (await listWorkspaces(scope.organizationId)).map((w) => ({ ...w, href: `${base}/${w.slug}` }));
  return (
    <>
      <AppHeader
        user={user}
        tool="design"
        organizationName={scope.organizationName}
        showConsole={await isAdminAnywhere(user.id)}
        switcher={<PlaceSwitcher label="Workspace" current={{ ...scope.workspace, href: `${base}/${scope.workspace.slug}` }} places={workspaces} />}
        nav={
          <SectionNav
            label="Design sections"
            items={DESIGN_SECTIONS.map((s) => ({ href: designPath(scope.organizationSlug, scope.workspace.slug, s.slug), label: s.label }))}
          />
        }
      />
      <Main>{children}</Main>
    </>
  );
}
