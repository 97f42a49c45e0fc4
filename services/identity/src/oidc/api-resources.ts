import { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { clientMetadata } from './client-metadata.js';
import { OIDC_SCOPES } from './scopes.js';
import type { ApiCatalog } from './api-catalog.js';
import type { SigningAlg } from '../keys/index.js';

type ResourceIndicators = NonNullable<NonNullable<Configuration['features']>['resourceIndicators']>;
type OidcClient = NonNullable<KoaContextWithOIDC['oidc']['client']>;

/**
 * Which API a request is for, and what its access token holds (oidc-provider's resource
 * indicators). Rules:
 * - Keycloak-style requests name scopes, not resources: the API is the one owning the requested
 *   API scopes; scopes of two APIs in one request are refused (`invalid_target`);
 * - a client-credentials request naming no API scope gets all the client's API scopes, as
 *   Keycloak's default client scopes;
 * - a scope the client was not given, or that its API does not have, is `invalid_scope`;
 * - the token is a JWT for the API's identifier, living the API's TTL, signed with the client's
 *   algorithm (or the realm's), as its ID tokens.
 */
export function apiResources(apis: Pick<ApiCatalog, 'byId' | 'byScopeName'>, defaultAlg: SigningAlg): ResourceIndicators {
  return {
    enabled: true,
    defaultResource: async (ctx, _client, oneOf) => (oneOf ? oneOf[0] : resourceForScopes(ctx, apis)),
    useGrantedResource: () => true,
    getResourceServerInfo: async (ctx, identifier, client) => {
      const api = await apis.byId(identifier);
      if (!api) throw new errors.InvalidTarget();
      const allowed = new Set(apiScopesOf(client));
      const refused = requestedApiScopes(ctx).filter((s) => !allowed.has(s) || !api.scopes.includes(s));
      if (refused.length > 0) throw new errors.InvalidScope('requested scope is not allowed', refused.join(' '));
      return {
        scope: api.scopes.filter((s) => allowed.has(s)).join(' '),
        audience: api.identifier,
        accessTokenTTL: api.accessTokenTtl,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: (clientMetadata(client)['id_token_signed_response_alg'] as SigningAlg | undefined) ?? defaultAlg } },
      };
    },
  };
}

function requestedScope(ctx: KoaContextWithOIDC): string {
  return typeof ctx.oidc.params?.scope === 'string' ? ctx.oidc.params.scope : '';
}

function requestedApiScopes(ctx: KoaContextWithOIDC): string[] {
  return requestedScope(ctx)
    .split(' ')
    .filter((s) => s && !OIDC_SCOPES.includes(s));
}

/** A client's API scopes (Keycloak's default client scopes). */
function apiScopesOf(client: OidcClient): string[] {
  return ((clientMetadata(client)['api_scopes'] as string[] | undefined) ?? []).slice();
}

async function resourceForScopes(ctx: KoaContextWithOIDC, apis: Pick<ApiCatalog, 'byScopeName'>): Promise<string | undefined> {
  let requested = requestedApiScopes(ctx);
  if (requested.length === 0) {
    if (ctx.oidc.params?.grant_type !== 'client_credentials' || !ctx.oidc.client) return undefined;
    requested = apiScopesOf(ctx.oidc.client);
    if (requested.length === 0) return undefined;
    (ctx.oidc.params as Record<string, unknown>)['scope'] = [...requestedScope(ctx).split(' ').filter(Boolean), ...requested].join(' ');
  }
  const owners = new Set<string>();
  for (const scope of requested) {
    const api = await apis.byScopeName(scope);
    if (!api) throw new errors.InvalidScope('requested scope is not allowed', scope);
    owners.add(api.identifier);
  }
  if (owners.size > 1) throw new errors.InvalidTarget('scopes of more than one API requested; request one API at a time');
  return [...owners][0];
}
