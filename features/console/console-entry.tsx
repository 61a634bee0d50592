/**
 * `/console`, `/console/{organization}` and `/console/{organization}/{environment}`: lead
 * an admin to the right environment's APIs; sign-in when signed out; the "not allowed" page
 * for a user who is an admin nowhere.
 */
import { forbidden, redirect } from "next/navigation";
import { orNotFound, pageEnvironment, pageMember, pageUser } from "@/lib/auth/page-guard";
import { defaultToolPath } from "@/features/shell/data";
import { consolePath } from "@/features/shell/routes";

export async function ConsoleEntryPage() {
  const user = await pageUser("/console");
  const target = await defaultToolPath("console", user.id);
  if (!target) forbidden();
  redirect(target);
}

export async function ConsoleOrganizationPage({ params }: { params: Promise<{ organization: string }> }) {
  const { organization } = await params;
  const member = await pageMember(`/console/${organization}`, { organization, role: "admin" });
  redirect(await orNotFound(defaultToolPath("console", member.userId, member.organizationSlug)));
}

export async function ConsoleEnvironmentPage({ params }: { params: Promise<{ organization: string; environment: string }> }) {
  const p = await params;
  const scope = await pageEnvironment(consolePath(p.organization, p.environment), p);
  redirect(consolePath(scope.organizationSlug, scope.environment.slug));
}
