/**
 * `/oauth/consent/{uid}`: an AI client asked to connect to an environment's MCP endpoint
 * (OAuth authorization request `uid`, lib/oauth/consent.ts). Signed out: to sign-in and
 * back. A member of the organization chooses the consumer the client will act as (each
 * with the APIs it may call), then allows or denies. Plain form POST, no JavaScript needed;
 * never framed (next.config.mjs). Errors (expired request, not a member) in place of the form.
 */
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { PlugZapIcon } from "lucide-react";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { currentUser } from "@/lib/auth/session";
import { signInPath } from "@/lib/auth/page-guard";
import { AppError } from "@/lib/errors";
import { consentRequest, type TConsentRequest } from "@/lib/oauth/consent";
import { issuerOfHeaders } from "@/lib/oauth/provider";

export const metadata = { title: "Connect an AI client" };

function Problem({ title, detail }: { title: string; detail: string }) {
  return (
    <Alert variant="destructive">
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>{detail}</AlertDescription>
    </Alert>
  );
}

function ConsentForm({ request, email }: { request: TConsentRequest; email: string }) {
  const { client, environment, consumers } = request;
  const first = consumers.find((c) => c.apis.length > 0) ?? consumers[0];
  return (
    <form method="post" action={`/oauth/consent/${request.uid}/decision`} className="space-y-5">
      <input type="hidden" name="form_token" value={request.formToken} />
      <p className="text-sm">
        <strong className="break-all">{client.name}</strong> wants to call the Flow APIs of{" "}
        <strong>
          {environment.organizationName} / {environment.name}
        </strong>{" "}
        through MCP. It will run them with the consumer you choose, exactly as that consumer&apos;s API key would (its grants, plan, rate limit and runs).
      </p>
      <p className="text-muted-foreground text-sm break-all">
        After you answer, you return to <code>{client.redirectUri}</code>. Signed in as {email}.
      </p>
      {consumers.length === 0 ? (
        <Problem title="No consumers yet" detail="This environment has no consumers. An admin creates one in the console first." />
      ) : (
        <fieldset className="space-y-2">
          <legend className="mb-2 text-sm font-medium">Act as consumer</legend>
          {consumers.map((c) => (
            <label key={c.id} className="has-[:checked]:border-primary flex cursor-pointer gap-3 rounded-md border p-3">
              <input type="radio" name="consumer" value={c.id} defaultChecked={c.id === first?.id} required className="mt-1" />
              <span className="min-w-0">
                <span className="block font-medium">
                  {c.name} <span className="text-muted-foreground font-normal">({c.slug})</span>
                </span>
                <span className="text-muted-foreground block text-sm">
                  {c.apis.length ? `May call: ${c.apis.map((a) => a.name).join(", ")}` : "May call no API as a tool yet (no grant with AI access)."}
                </span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="decision" value="allow" disabled={consumers.length === 0}>
          Allow
        </Button>
        <Button type="submit" name="decision" value="deny" variant="outline" formNoValidate>
          Deny
        </Button>
      </div>
    </form>
  );
}

export default async function ConsentPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const user = await currentUser();
  if (!user) redirect(signInPath(`/oauth/consent/${encodeURIComponent(uid)}`));
  const issuer = issuerOfHeaders(await headers());
  let request: TConsentRequest | null = null;
  let failure: AppError | null = null;
  try {
    if (!issuer) throw new AppError("not_found", "This service does not answer at this address.");
    request = await consentRequest(issuer, uid, user.id);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    failure = err;
  }
  return (
    <main id="main" className="flex flex-1 items-center justify-center px-4 py-16">
      <Card className="w-full max-w-lg">
        <CardHeader>
          <div className="mb-2 flex items-center gap-2 font-semibold">
            <PlugZapIcon aria-hidden="true" className="size-5" />
            Flow API
          </div>
          <h1 className="text-xl font-semibold tracking-tight">Connect an AI client</h1>
          <CardDescription>Choose what this client may do in the environment it asked for.</CardDescription>
        </CardHeader>
        <CardContent>
          {request ? (
            <ConsentForm request={request} email={user.email} />
          ) : (
            <Problem title={failure?.code === "forbidden" ? "Not allowed" : "Cannot connect"} detail={failure?.detail ?? "Unknown request."} />
          )}
        </CardContent>
      </Card>
    </main>
  );
}
