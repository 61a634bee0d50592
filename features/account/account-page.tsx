/** `/account`: who you are, your organizations, change password, sign out everywhere. */
import { ConfirmButton } from "@/components/confirm-button";
import { TitledCard } from "@/components/ui/card";
import { pageUser } from "@/lib/auth/page-guard";
import { AppHeader } from "@/features/shell/app-header";
import { Main } from "@/features/shell/main";
import { PageHeader } from "@/features/shell/page-header";
import { isAdminAnywhere } from "@/features/shell/data";
import { ChangePasswordForm } from "@/features/account/change-password-form";
import { Memberships } from "@/features/account/memberships";
import { signOutEverywhereAction } from "@/features/account/actions";

export const metadata = { title: "Account" };

export default async function AccountPage() {
  const user = await pageUser("/account");
  return (
    <>
      <AppHeader user={user} showConsole={await isAdminAnywhere(user.id)} />
      <Main>
        <PageHeader title="Account" description={`Signed in as ${user.email}.`} />
        <div className="grid gap-6 md:grid-cols-2">
          <TitledCard title="Profile" description="Your name and the organizations you belong to." contentClassName="grid gap-4">
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Name</dt>
              <dd>{user.name}</dd>
              <dt className="text-muted-foreground">Email</dt>
              <dd>{user.email}</dd>
            </dl>
            <Memberships />
          </TitledCard>
          <TitledCard title="Sessions" description="Signed in on a shared or lost computer? End every session at once.">
            <ConfirmButton
              label="Sign out everywhere"
              title="Sign out everywhere?"
              description="Every browser signed in as you, this one included, is signed out at once."
              confirmLabel="Sign out everywhere"
              confirmVariant="destructive"
              run={signOutEverywhereAction}
              success="Signed out everywhere."
            />
          </TitledCard>
          <TitledCard className="md:col-span-2" title="Change password" description="Changing it signs out your other browsers.">
            <ChangePasswordForm />
          </TitledCard>
        </div>
      </Main>
    </>
  );
}
