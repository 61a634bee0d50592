/** `/console/{org}/{env}/consumers/{consumerId}/webhooks`: a consumer's webhook endpoints and their recent deliveries. */
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/features/shell/page-header";
import { consolePath } from "@/features/shell/routes";
import { AppError } from "@/lib/errors";
import { getConsumerOrThrow } from "@/lib/consumers/get-consumer-or-throw";
import { listWebhookEndpoints } from "@/lib/webhooks/webhook-endpoints";
import { consolePage } from "@/features/console/data";
import { WebhooksManager } from "@/features/console/webhooks-manager";
import type { TConsoleParams } from "@/features/console/console-layout";

export default async function WebhooksPage({ params }: { params: Promise<TConsoleParams & { consumerId: string }> }) {
  const p = await params;
  const consumers = consolePath(p.organization, p.environment, "consumers");
  const { ref, organization, environment } = await consolePage(`${consumers}/${p.consumerId}/webhooks`, p);
  const found = await Promise.all([getConsumerOrThrow(ref, p.consumerId), listWebhookEndpoints(ref, p.consumerId)]).catch((err) => {
    if (err instanceof AppError && err.code === "not_found") notFound();
    throw err;
  });
  const [consumer, endpoints] = found;
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
