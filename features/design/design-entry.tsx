/**
 * `/design`, `/design/{organization}` and `/design/{organization}/{workspace}`: lead to the
 * right workspace's Flows, or to sign-in when signed out.
 */
import { redirect } from "next/navigation";
import { FolderXIcon } from "lucide-react";
import { orNotFound, pageUser, pageWorkspace } from "@/lib/auth/page-guard";
import { isAdminAnywhere, defaultToolPath } from "@/features/shell/data";
import { designPath } from "@/features/shell/routes";
import { AppHeader } from "@/features/shell/app-header";
import { EmptyState } from "@/features/shell/empty-state";
import { Main } from "@/features/shell/main";

export async function DesignEntryPage() {
  const user = await pageUser("/design");
  const target = await defaultToolPath("design", user.id);
  if (target) redirect(target);
  return (
    <>
      <AppHeader user={user} tool="design" showConsole={await isAdminAnywhere(user.id)} />
      <Main>
        <h1 className="sr-only">Design</h1>
        <EmptyState
          icon={FolderXIcon}
          title="No workspace yet"
          description="You are not a member of any organization with a workspace. Ask an admin of your organization to add you."
        />
      </Main>
    </>
  );
}

export async function DesignOrganizationPage({ params }: { params: Promise<{ organization: string }> }) {
  const { organization } = await params;
  const user = await pageUser(`/design/${organization}`);
  redirect(await orNotFound(defaultToolPath("design", user.id, organization)));
}

export async function DesignWorkspacePage({ params }: { params: Promise<{ organization: string; workspace: string }> }) {
  const p = await params;
  const scope = await pageWorkspace(designPath(p.organization, p.workspace), p);
  redirect(designPath(scope.organizationSlug, scope.workspace.slug));
}
