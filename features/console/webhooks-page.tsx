/** `/console/{org}/{env}/consumers/{consumerId}/webhooks`: a consumer's webhook endpoints and their recent deliveries. */
import Link from "next/link";
import { orNotFound } from "@/lib/auth/page-guard";
import { PageHeader } from "@/features/shell/page-header";
import { consolePath } from "@/features/shell/routes";
import { listWebhookEndpoints } from "@/lib/webhooks/webhook-endpoints";
import { consolePage, consumerOf } from "@/features/console/data";
import { WebhooksManager } from "@/features/console/webhooks-manager";
import type { TConsoleParams } from "@/features/console/console-layout";
import { consoleTitle } from "@/features/shell/page-title";

type TWebhooksParams = TConsoleParams & { consumerId: string };

export async function generateMetadata({ params }: { params: Promise<TWebhooksParams> }) {
  const p = await params;
  return consoleTitle(p, "consumers", async (scope) => `Webhooks of ${(await consumerOf(scope.organizationId, scope.environment.id, p.consumerId)).name}`);
}

export default async function WebhooksPage({ params }: { params: Promise<TWebhooksParams> }) {
  const p = await params;
  const consumers = consolePath(p.organization, p.environment, "consumers");
  const { ref, organization, environment } = await consolePage(`${consumers}/${p.consumerId}/webhooks`, p);
  const [consumer, endpoints] = await orNotFound(
    Promise.all([consumerOf(ref.organizationId, ref.environmentId, p.consumerId), listWebhookEndpoints(ref, p.consumerId)]),
  );
  return (
    <>
      <PageHeader
        title={`Webhooks of ${consumer.name}`}
        description={
          <>
            Where the final states of {consumer.name}&apos;s runs are posted, signed (Standard Webhooks). ·{" "}
            <Link className="underline underline-offset-4" href={consumers}>
              All consumers
            </Link>{" "}
            ·{" "}
            <Link className="underline underline-offset-4" href={consolePath(organization, environment, "runs")}>
              Runs
            </Link>
          </>
        }
      />
      <WebhooksManager place={{ organization, environment }} consumerId={consumer.id} endpoints={endpoints} />
    </>
  );
}
