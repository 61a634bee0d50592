"use client";
import { PlugZapIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { TitledCard } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeaderRow, TableRow } from "@/components/ui/table";
import { ConfirmButton } from "@/components/confirm-button";
import { EmptyState } from "@/features/shell/empty-state";
import { revokeOauthClientAction } from "@/features/console/actions";
import { formatTime } from "@/features/console/format";
import type { TOauthClientItem } from "@/lib/oauth/authorizations";

/**
 * "Authorized AI clients": the OAuth clients people connected by signing in (MCP), per
 * consumer, with their last use; revoking one makes its next call 401 (lib/oauth/authorizations.ts).
 */
export function OauthClients({ place, clients }: { place: { organization: string; environment: string }; clients: TOauthClientItem[] }) {
  return (
    <TitledCard
      title="Authorized AI clients"
      description="AI clients that connected by signing in (OAuth). Each acts as the consumer chosen when it was allowed, like one of that consumer's keys."
    >
      {clients.length === 0 ? (
        <EmptyState
          icon={PlugZapIcon}
          title="No AI client has connected by signing in"
          description="Give an AI client the MCP address (AI access page): it asks a member to sign in and choose a consumer."
        />
      ) : (
        <Table>
          <TableHeaderRow columns={["Client", "Consumer", "Authorized by", "Authorized", "Last used", ["Actions", "sr-only"]]} />
          <TableBody>
            {clients.map((c) => (
              <TableRow key={c.id} data-oauth-client={c.clientName}>
                <TableCell>
                  <div className="font-medium break-all">{c.clientName}</div>
                  <div className="font-mono text-xs break-all text-muted-foreground">{c.clientId}</div>
                  {c.state === "revoked" ? <Badge variant="destructive">Revoked</Badge> : null}
                  {c.state === "ended" ? (
                    <Badge variant="outline" title="Expired, revoked by the client, or ended after a reused refresh token">
                      Ended
                    </Badge>
                  ) : null}
                </TableCell>
                <TableCell>{c.consumerName}</TableCell>
                <TableCell className="break-all">{c.authorizedBy}</TableCell>
                <TableCell>{formatTime(c.createdAt)}</TableCell>
                <TableCell>{c.lastUsedAt ? formatTime(c.lastUsedAt) : "Never"}</TableCell>
                <TableCell className="text-right">
                  {c.state !== "active" ? null : (
                    <ConfirmButton
                      size="sm"
                      label="Revoke"
                      ariaLabel={`Revoke client ${c.clientName}`}
                      title={`Revoke ${c.clientName}?`}
                      description="Its next call is refused (401) and its tokens are deleted; to connect again, someone signs in and allows it again."
                      confirmLabel="Revoke client"
                      confirmVariant="destructive"
                      run={() => revokeOauthClientAction({ ...place, authorizationId: c.id })}
                      success={`${c.clientName} revoked.`}
                    />
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </TitledCard>
  );
}
