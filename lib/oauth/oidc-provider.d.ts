// Types for the parts of oidc-provider 8 (no typings of its own) that lib/oauth uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface TOidcGrant {
    jti: string;
    accountId?: string;
    clientId?: string;
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
    destroy(): Promise<void>;
  }

  export interface TOidcInteraction {
    uid: string;
    exp: number;
    returnTo: string;
    grantId?: string;
    params: Record<string, unknown>;
    prompt: { name: string; details: Record<string, unknown> };
    session?: { accountId?: string };
    result?: Record<string, unknown>;
    lastSubmission?: Record<string, unknown>;
    save(ttl: number): Promise<string>;
  }

  export interface TOidcClient {
    clientId: string;
    clientName?: string;
    redirectUris?: string[];
    clientUri?: string;
  }

  export interface TOidcAccessToken {
    jti: string;
    aud?: string | string[];
    grantId?: string;
    clientId?: string;
    accountId?: string;
    scope?: string;
    exp?: number;
    isValid?: boolean;
  }

  export class OIDCProviderError extends Error {
    status: number;
    error: string;
    error_description?: string;
  }

  export const errors: {
    InvalidTarget: new (description?: string) => OIDCProviderError;
    InvalidRequest: new (description?: string) => OIDCProviderError;
  };

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    issuer: string;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    use(middleware: (ctx: any, next: () => Promise<void>) => Promise<void>): void;
    Grant: { new (init: { accountId: string; clientId: string }): TOidcGrant; find(id: string): Promise<TOidcGrant | undefined> };
    Interaction: { find(uid: string): Promise<TOidcInteraction | undefined> };
    Client: { find(id: string): Promise<TOidcClient | undefined> };
    AccessToken: { find(token: string): Promise<TOidcAccessToken | undefined> };
  }
}
