/**
 * `/console/{org}/{env}/keys`: the consumers' API keys (prefix only), create, revoke, rotate;
 * and the AI clients authorized by OAuth (their tokens stand for a consumer's key), revoke.
 */
import { PageHeader } from "@/features/shell/page-header";
import { consolePath } from "@/features/shell/routes";
import { listConsumers } from "@/lib/consumers/list-consumers";
import { listOauthClients } from "@/lib/oauth/authorizations";
import { consolePage } from "@/features/console/data";
import { KeysManager } from "@/features/console/keys-manager";
import { OauthClients } from "@/features/console/oauth-clients";
import type { TConsoleParams } from "@/features/console/console-layout";
import { consoleTitle } from "@/features/shell/page-title";

export async function generateMetadata({ params }: { params: Promise<TConsoleParams> }) {
  return consoleTitle(await params, "keys");
}

export default async function KeysPage({ params, searchParams }: { params: Promise<TConsoleParams>; searchParams: Promise<{ consumer?: string }> }) {
  const p = await params;
  const { consumer } = await searchParams;
  const { scope, ref, organization, environment } = await consolePage(consolePath(p.organization, p.environment, "keys"), p);
  const [consumers, oauthClients] = await Promise.all([listConsumers(ref), listOauthClients(ref)]);
  const keys = consumers
    .flatMap((c) => c.keys.map((k) => ({ ...k, consumerId: c.id, consumerName: c.name })))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
  return (
    <>
      <PageHeader
        title="Keys"
        description={`API keys of the consumers of environment ${scope.environment.name}. Secrets are shown once; afterwards only the prefix.`}
      />
      <KeysManager
        place={{ organization, environment }}
        keys={keys}
        consumers={consumers.map((c) => ({ id: c.id, name: c.name }))}
        selectedConsumer={consumer}
      />
      <div className="mt-8">
        <OauthClients place={{ organization, environment }} clients={oauthClients} />
      </div>
    </>
  );
}
