import Provider, { errors, type Account, type AdapterPayload, type Configuration, type KoaContextWithOIDC, type ResponseType } from 'oidc-provider';
import type { JWK } from 'jose';
import { isUuid, type Logger } from '@hush/common';
import type { ApiCatalog } from '../apis/api-catalog.js';
import type { Client } from '../clients/clients.repository.js';
import type { ClientLookup } from '../clients/client-cache.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import type { FailureLimits } from '../ratelimit/failure-limits.js';
import { REALM_PATH, type Config } from '../config.js';
import { SIGNING_ALG } from '../keys/keys.js';
import { ID_TOKEN_TTL } from '../keys/rotation.js';
import type { Db } from '../db/knex.js';
import { clientMetadata } from './client-metadata.js';
import { createAdapterClass } from './adapter.repository.js';
import { clientCredentialsRefresh } from './client-credentials-refresh.js';
import { pinPublicOrigin, publicDocumentCaching } from './public-url.js';
import { clientAuthLimiter, compareClientSecret } from './rate-limits.js';
import { OIDC_SCOPES } from './scopes.js';
import { answerUnavailable } from './unavailable.js';
import { allowFormTarget, errorPage, securePage } from '@hush/common';
import { logoutPage, loggedOutPage } from '../interactions/views.js';
import type { Revocations } from '../revocations/revocations.js';
import { withGrantClaim } from '../revocations/grant-claim.js';
import { jwtTokenEndpoints } from '../revocations/jwt-token-endpoints.js';

export interface ProviderDeps {
  config: Config;
  db: Db;
  clients: ClientLookup;
  users: UsersRepository;
  apis: ApiCatalog;
  limiter: FailureLimits;
  jwks: JWK[];
  cookieKeys: string[];
  logger: Logger;
  revocations: Revocations;
}

const PROTOCOL = '/protocol/openid-connect';

/** oidc-provider configured as a Keycloak realm: paths, grants, JWT access tokens per API. */
export function buildProvider(deps: ProviderDeps): Provider {
  const { config, clients, users, apis, limiter } = deps;

  const findClient = async (id: string): Promise<AdapterPayload | undefined> => {
    const client = await clients.find(id);
    return client && adapterPayload(client, Provider.ctx);
  };

  const configuration: Configuration = {
    adapter: createAdapterClass(deps.db, findClient, { grantRevoked: (grantId) => deps.revocations.revokeGrant(grantId) }),
    clients: [],
    jwks: { keys: deps.jwks },
    cookies: { keys: deps.cookieKeys, long: { signed: true }, short: { signed: true } },
    routes: {
      authorization: `${PROTOCOL}/auth`,
      token: `${PROTOCOL}/token`,
      jwks: `${PROTOCOL}/certs`,
      userinfo: `${PROTOCOL}/userinfo`,
      introspection: `${PROTOCOL}/token/introspect`,
      revocation: `${PROTOCOL}/revoke`,
      end_session: `${PROTOCOL}/logout`,
    },
    scopes: [...OIDC_SCOPES],
    claims: {
      openid: ['sub'],
      profile: ['preferred_username', 'name'],
      email: ['email'],
    },
    responseTypes: ['code', 'id_token token', 'none'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    // Client secrets are stored hashed, so no HMAC (HS*) use of them is possible; asymmetric only.
    enabledJWA: {
      idTokenSigningAlgValues: ['ES256'],
      userinfoSigningAlgValues: ['ES256'],
      introspectionSigningAlgValues: ['ES256'],
      authorizationSigningAlgValues: ['ES256'],
    },
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: SIGNING_ALG,
      token_endpoint_auth_method: 'client_secret_basic',
    },
    extraClientMetadata: { properties: ['api_scopes', 'organization_id', 'organization_name', 'client_credentials_refresh'] },
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          const nonce = securePage(ctx.req, ctx.res);
          allowFormTarget(ctx.req, ctx.res, ctx.oidc.params?.['post_logout_redirect_uri']);
          ctx.body = logoutPage(form, nonce);
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.body = loggedOutPage(securePage(ctx.req, ctx.res));
        },
      },
      resourceIndicators: {
        enabled: true,
        // Keycloak-style requests name scopes, not resources: the API is the one owning them.
        defaultResource: async (ctx, _client, oneOf) => {
          if (oneOf) return oneOf[0];
          return resourceForScopes(ctx, apis);
        },
        useGrantedResource: () => true,
        getResourceServerInfo: async (ctx, identifier, client) => {
          const api = await apis.byId(identifier);
          if (!api) throw new errors.InvalidTarget();
          const allowed = new Set((clientMetadata(client)['api_scopes'] as string[] | undefined) ?? []);
          const requested = (typeof ctx.oidc.params?.scope === 'string' ? ctx.oidc.params.scope : '').split(' ').filter((s) => s && !OIDC_SCOPES.includes(s));
          const refused = requested.filter((s) => !allowed.has(s) || !api.scopes.includes(s));
          if (refused.length > 0) throw new errors.InvalidScope('requested scope is not allowed', refused.join(' '));
          return {
            scope: api.scopes.filter((s) => allowed.has(s)).join(' '),
            audience: api.identifier,
            accessTokenTTL: api.accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: SIGNING_ALG } },
          };
        },
      },
    },
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 300,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 300,
      AuthorizationCode: 60,
      IdToken: ID_TOKEN_TTL,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: config.REFRESH_TOKEN_TTL,
      RefreshToken: config.REFRESH_TOKEN_TTL,
    },
    // Keycloak issues refresh tokens to every client allowed the grant, not only with offline_access.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Always rotate; presenting a rotated token again revokes the grant (RFC 9700 §4.14.2).
    rotateRefreshToken: () => true,
    findAccount: async (_ctx, id) => findAccount(id, users, clients),
    extraTokenClaims: async (ctx, token) => {
      if (token.kind !== 'AccessToken' && token.kind !== 'ClientCredentials') return undefined;
      const accountId = 'accountId' in token ? (token.accountId as string | undefined) : undefined;
      if (token.kind === 'ClientCredentials' || accountId === token.clientId) {
        const meta: Readonly<Record<string, unknown>> = ctx.oidc.client ? clientMetadata(ctx.oidc.client) : {};
        return meta['organization_name'] ? { organization: meta['organization_name'], organization_id: meta['organization_id'] } : undefined;
      }
      if (!accountId) return undefined;
      const user = await users.findById(accountId);
      if (!user) return undefined;
      return {
        username: user.username,
        preferred_username: user.username,
        ...(user.organizationName ? { organization: user.organizationName, organization_id: user.organizationId } : {}),
      };
    },
    interactions: { url: (_ctx, interaction) => `${REALM_PATH}/login-actions/${interaction.uid}` },
    renderError,
  };

  // Resource servers refuse the access tokens of a revoked grant by this claim (ADR 9).
  configuration.extraTokenClaims = withGrantClaim(configuration.extraTokenClaims);

  const provider = new Provider(config.issuer, configuration);
  provider.proxy = config.TRUST_PROXY;
  pinPublicOrigin(provider, config.AUTH_URL);

  // Stored secrets are SHA-256 hashes (clients/client-secret.ts); compared by hash, reading the failure counters meanwhile.
  provider.Client.prototype.compareClientSecret = function compare(this: { clientId: string; clientSecret: string }, actual: string) {
    return compareClientSecret(limiter, this.clientId, actual, this.clientSecret);
  };

  // Outermost: it rewrites the final answer of a request that failed on an unavailable dependency.
  answerUnavailable(provider, deps.logger, renderError);
  provider.use(jwtTokenEndpoints({ provider, issuer: config.issuer, jwks: deps.jwks, revocations: deps.revocations, logger: deps.logger }));
  provider.use(clientAuthLimiter(limiter));
  provider.use(clientCredentialsRefresh(provider));
  provider.use(publicDocumentCaching(config.KEY_RELOAD_INTERVAL));
  return provider;
}

/** oidc-provider's error page (for requests that accept HTML; the others get its JSON). */
function renderError(ctx: KoaContextWithOIDC, out: { error?: string; error_description?: string }): void {
  ctx.type = 'html';
  ctx.body = errorPage({ status: ctx.status, code: out.error ?? 'error', message: out.error_description ?? '', nonce: securePage(ctx.req, ctx.res) });
}

/** Both variants of a client record's payload, built once per record (the ClientCache keeps records). */
const payloads = new WeakMap<Client, { basic?: AdapterPayload; post?: AdapterPayload }>();

/**
 * A client may send its secret with HTTP Basic or in the form body (spec 4.1 shows the body);
 * oidc-provider accepts one registered method per client, so the method is the one this request uses.
 */
function adapterPayload(client: Client, ctx: KoaContextWithOIDC | undefined): AdapterPayload {
  const basic = /^basic /i.test(ctx?.get('authorization') ?? '');
  let built = payloads.get(client);
  if (!built) payloads.set(client, (built = {}));
  const variant = basic ? 'basic' : 'post';
  return (built[variant] ??= Object.freeze(buildPayload(client, basic)));
}

function buildPayload(client: Client, basic: boolean): AdapterPayload {
  const oidcScopes = client.scopes.filter((s) => OIDC_SCOPES.includes(s));
  return {
    client_id: client.clientId,
    client_name: client.name,
    ...(client.secretHash
      ? { client_secret: client.secretHash, token_endpoint_auth_method: basic ? 'client_secret_basic' : 'client_secret_post' }
      : { token_endpoint_auth_method: 'none' }),
    grant_types: client.grantTypes,
    response_types: client.responseTypes as ResponseType[],
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    // oidc-provider validates `scope` against its static (OIDC) scopes; API scopes travel apart.
    ...(oidcScopes.length ? { scope: oidcScopes.join(' ') } : {}),
    api_scopes: client.scopes.filter((s) => !OIDC_SCOPES.includes(s)),
    organization_id: client.organizationId ?? undefined,
    organization_name: client.organizationName ?? undefined,
    client_credentials_refresh: client.clientCredentialsRefresh,
  };
}

async function resourceForScopes(ctx: KoaContextWithOIDC, apis: ApiCatalog): Promise<string | undefined> {
  const requested = (typeof ctx.oidc.params?.scope === 'string' ? ctx.oidc.params.scope : '').split(' ').filter((s) => s && !OIDC_SCOPES.includes(s));
  if (requested.length === 0) {
    if (ctx.oidc.params?.grant_type === 'client_credentials') {
      throw new errors.InvalidScope('scope is required: name one or more scopes of an API', 'scope');
    }
    return undefined;
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

async function findAccount(id: string, users: UsersRepository, clients: ClientLookup): Promise<Account | undefined> {
  if (isUuid(id)) {
    const user = await users.findById(id);
    if (!user) return undefined;
    return {
      accountId: user.id,
      claims: () => ({
        sub: user.id,
        preferred_username: user.username,
        ...(user.name ? { name: user.name } : {}),
        ...(user.email ? { email: user.email } : {}),
      }),
    };
  }
  // A client's service account (refresh tokens from the client-credentials grant).
  const client = await clients.find(id);
  if (!client?.clientCredentialsRefresh) return undefined;
  return { accountId: client.clientId, claims: () => ({ sub: client.clientId }) };
}
