import Provider, { type AdapterPayload, type KoaContextWithOIDC, type ResponseType } from 'oidc-provider';
import { OIDC_SCOPES } from './scopes.js';
import type { Client, ClientLookup } from '../clients/index.js';
import type { SigningAlg } from '../keys/index.js';

/** Both variants of a client record's payload, built once per record (the ClientCache keeps records). */
const payloads = new WeakMap<Client, { basic?: AdapterPayload; post?: AdapterPayload }>();

/**
 * The adapter's `Client` lookup: a client record as oidc-provider's client metadata. A client may
 * send its secret with HTTP Basic or in the form body (docs/api.md shows the body); oidc-provider
 * accepts one registered method per client, so the method is the one this request uses.
 */
export function clientPayloads(clients: ClientLookup, defaultAlg: SigningAlg, rootUrl?: string) {
  return async function findClient(id: string): Promise<AdapterPayload | undefined> {
    const client = await clients.find(id);
    // A disabled client is unknown to the protocol: its secret and its tokens' refreshes are refused.
    return client?.enabled ? adapterPayload(client, Provider.ctx, defaultAlg, rootUrl) : undefined;
  };
}

/**
 * Keycloak's root URL: a redirect or post-logout URI stored as a path (`/auth/...`, as the console
 * clients' are) stands for that path at `rootUrl` (AUTH_URL). Absolute URIs are left as they are.
 */
export function atRootUrl(uris: readonly string[], rootUrl: string | undefined): string[] {
  return uris.map((uri) => (rootUrl && uri.startsWith('/') && !uri.startsWith('//') ? `${rootUrl}${uri}` : uri));
}

export function adapterPayload(client: Client, ctx: KoaContextWithOIDC | undefined, defaultAlg: SigningAlg, rootUrl?: string): AdapterPayload {
  const basic = /^basic /i.test(ctx?.get('authorization') ?? '');
  let built = payloads.get(client);
  if (!built) payloads.set(client, (built = {}));
  const variant = basic ? 'basic' : 'post';
  return (built[variant] ??= Object.freeze(buildPayload(client, basic, defaultAlg, rootUrl)));
}

/** The metadata beyond oidc-provider's own, which `extraClientMetadata` must declare. */
export const EXTRA_CLIENT_METADATA = ['api_scopes', 'organization_id', 'organization_name', 'client_credentials_refresh', 'pkce_method', 'web_origins', 'consent_required'];

function buildPayload(client: Client, basic: boolean, defaultAlg: SigningAlg, rootUrl: string | undefined): AdapterPayload {
  const oidcScopes = client.scopes.filter((s) => OIDC_SCOPES.includes(s));
  return {
    client_id: client.clientId,
    client_name: client.name,
    ...(client.secretHash
      ? { client_secret: client.secretHash, token_endpoint_auth_method: basic ? 'client_secret_basic' : 'client_secret_post' }
      : { token_endpoint_auth_method: 'none' }),
    grant_types: client.grantTypes,
    response_types: client.responseTypes as ResponseType[],
    redirect_uris: atRootUrl(client.redirectUris, rootUrl),
    post_logout_redirect_uris: atRootUrl(client.postLogoutRedirectUris, rootUrl),
    // oidc-provider validates `scope` against its static (OIDC) scopes; API scopes travel apart.
    ...(oidcScopes.length ? { scope: oidcScopes.join(' ') } : {}),
    api_scopes: client.scopes.filter((s) => !OIDC_SCOPES.includes(s)),
    organization_id: client.organizationId ?? undefined,
    organization_name: client.organizationName ?? undefined,
    client_credentials_refresh: client.clientCredentialsRefresh,
    pkce_method: client.pkceMethod ?? undefined,
    id_token_signed_response_alg: client.signingAlg ?? defaultAlg,
    web_origins: client.webOrigins,
    consent_required: client.consentRequired,
  };
}
