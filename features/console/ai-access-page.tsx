/**
 * `/console/{org}/{env}/ai-access`: the "Available to AI assistants" switch of every served
 * API and the "Connect an AI client" view: the environment's real MCP address
 * (`/public/mcp/{org}/{env}`), the client configurations, and the tools each consumer's keys
 * see (lib/serving/resolve-ai-caller.ts `aiApisOfConsumers`, what the MCP door itself lists).
 */
import Link from "next/link";
import { BotIcon } from "lucide-react";
import { TitledCard } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { EmptyState } from "@/features/shell/empty-state";
import { PageHeader } from "@/features/shell/page-header";
import { consolePath } from "@/features/shell/routes";
import { listConsumers } from "@/lib/consumers/list-consumers";
import { mcpEndpointUrl, mcpServerName } from "@/lib/mcp/client-config";
import { toolName } from "@/lib/mcp/tool-definitions";
import { aiApisOfConsumers } from "@/lib/serving/resolve-ai-caller";
import { listServedApis } from "@/lib/serving/list-served-apis";
import { consolePage, publicBaseUrl } from "@/features/console/data";
import { AiSwitch } from "@/features/console/ai-switch";
import { ConnectAiClient } from "@/features/console/connect-ai-client";
import type { TConsoleParams } from "@/features/console/console-layout";
import { consoleTitle } from "@/features/shell/page-title";

export async function generateMetadata({ params }: { params: Promise<TConsoleParams> }) {
  return consoleTitle(await params, "ai-access");
}

export default async function AiAccessPage({ params }: { params: Promise<TConsoleParams> }) {
  const p = await params;
  const { scope, ref, organization, environment } = await consolePage(consolePath(p.organization, p.environment, "ai-access"), p);
  const [apis, consumers] = await Promise.all([listServedApis(ref), listConsumers(ref)]);
  const { planAllows, apis: toolApis } = await aiApisOfConsumers(
    ref,
    consumers.map((c) => c.id),
    { organization, environment },
  );
  const connect = consumers.map((c) => ({
    id: c.id,
    name: c.name,
    keys: c.keys.filter((k) => k.state === "active" || k.state === "expiring").map((k) => ({ id: k.id, name: k.name, prefix: k.prefix })),
    tools: toolApis.get(c.id)!.map((a) => ({ name: toolName(a.path.api), title: a.name })),
    planAllows,
  }));
  const url = mcpEndpointUrl(await publicBaseUrl(), organization, environment);
  return (
    <>
      <PageHeader
        title="AI access"
        description={`Which APIs of environment ${scope.environment.name} AI assistants may use over MCP, and how to connect a client.`}
      />
      <div className="grid gap-8">
        <TitledCard
          title="APIs as tools"
          description="An AI client sees an API as a tool while its switch is on and the client's key's consumer is granted the API; changes apply to its next request."
        >
          {apis.length === 0 ? (
            <EmptyState icon={BotIcon} title="No APIs served yet" description="Publish a Flow API into this environment first." />
          ) : (
            <Table>
              <TableHeaderRow columns={["API", "Tool name", "Setting"]} />
              <TableBody>
                {apis.map((a) => (
                  <TableRow key={a.flowApiId}>
                    <TableCell>
                      <Link className="font-medium underline underline-offset-4" href={`${consolePath(organization, environment, "apis")}/${a.slug}`}>
                        {a.name}
                      </Link>
                    </TableCell>
                    <TableCell className="font-mono text-xs">{toolName(a.slug)}</TableCell>
                    <TableCell>
                      <AiSwitch organization={organization} environment={environment} api={a} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </TitledCard>
        <ConnectAiClient url={url} serverName={mcpServerName(organization, environment)} consumers={connect} />
      </div>
    </>
  );
}
