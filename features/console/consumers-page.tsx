/** `/console/{org}/{env}/consumers`: the environment's consumers and their access grants. */
import { PageHeader } from "@/features/shell/page-header";
import { consolePath } from "@/features/shell/routes";
import { listConsumers } from "@/lib/consumers/list-consumers";
import { listServedApis } from "@/lib/serving/list-served-apis";
import { consolePage } from "@/features/console/data";
import { ConsumersManager } from "@/features/console/consumers-manager";
import type { TConsoleParams } from "@/features/console/console-layout";
import { consoleTitle } from "@/features/shell/page-title";

export async function generateMetadata({ params }: { params: Promise<TConsoleParams> }) {
  return consoleTitle(await params, "consumers");
}

export default async function ConsumersPage({ params }: { params: Promise<TConsoleParams> }) {
  const p = await params;
  const { scope, ref, organization, environment } = await consolePage(consolePath(p.organization, p.environment, "consumers"), p);
  const [consumers, apis] = await Promise.all([listConsumers(ref), listServedApis(ref)]);
  return (
    <>
      <PageHeader
        title="Consumers"
        description={`Who may call which API of environment ${scope.environment.name}. A removed grant takes effect on the next call.`}
      />
      <ConsumersManager place={{ organization, environment }} consumers={consumers} apis={apis} />
    </>
  );
}
