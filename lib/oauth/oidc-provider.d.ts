// Types for the parts of oidc-provider 8 (no typings of its own) that lib/oauth uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface TOidcGrant {
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface TOidcInteraction {
    exp: number;
    returnTo: string;
    params: Record<string, unknown>;
    result?: Record<string, unknown>;
    save(ttl: number): Promise<string>;
  }

  export const errors: { InvalidTarget: new (description?: string) => Error; InvalidRedirectUri: new () => Error };

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    use(middleware: (ctx: any, next: () => Promise<void>) => Promise<void>): void;
    Grant: new (init: { accountId: string; clientId: string }) => TOidcGrant;
    Interaction: { find(uid: string): Promise<TOidcInteraction | undefined> };
    Client: { find(id: string): Promise<{ clientName?: string } | undefined> };
    AccessToken: { find(token: string): Promise<{ aud?: string | string[]; grantId?: string; scope?: string } | undefined> };
  }
}
