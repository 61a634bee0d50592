/**
 * The serving console's frame around every page of an environment (admins only): header
 * with the organization, the environment switcher and the sections.
 */
import type { ReactNode } from "react";
import { pageEnvironment, requestedPath } from "@/lib/auth/page-guard";
import { requireUser } from "@/lib/auth/session";
import { AppHeader } from "@/features/shell/app-header";
import { Main } from "@/features/shell/main";
import { PlaceSwitcher } from "@/features/shell/place-switcher";
import { SectionNav } from "@/features/shell/section-nav";
import { listEnvironments } from "@/features/shell/data";
import { CONSOLE_SECTIONS, consolePath } from "@/features/shell/routes";

export type TConsoleParams = { organization: string; environment: string };

export default async function ConsoleLayout({ children, params }: { children: ReactNode; params: Promise<TConsoleParams> }) {
  const p = await params;
  const scope = await pageEnvironment(await requestedPath(consolePath(p.organization, p.environment)), p);
  const user = await requireUser();
  const base = `/console/${scope.organizationSlug}`;
  const environments = (await listEnvironments(scope.organizationId)).map((e) => ({ ...e, href: `${base}/${e.slug}` }));
  return (
    <>
      <AppHeader
        user={user}
        tool="console"
        organizationName={scope.organizationName}
        showConsole
        switcher={<PlaceSwitcher label="Environment" current={{ ...scope.environment, href: `${base}/${scope.environment.slug}` }} places={environments} />}
        nav={
          <SectionNav
            label="Console sections"
            items={CONSOLE_SECTIONS.map((s) => ({ href: consolePath(scope.organizationSlug, scope.environment.slug, s.slug), label: s.label }))}
          />
        }
      />
      <Main>{children}</Main>
    </>
  );
}
