-- Hosts an environment's webhooks and href inputs may reach over http or on private
-- addresses (lib/net/outbound-hosts.ts); empty = public https only.
ALTER TABLE "environment" ADD COLUMN "outboundHosts" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
