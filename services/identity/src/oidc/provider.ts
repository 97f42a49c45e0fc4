import Provider, { errors, type Account, type AdapterPayload, type Configuration, type KoaContextWithOIDC, type ResponseType } from 'oidc-provider';
import type { JWK } from 'jose';
import { deriveKey, isUuid, type Logger } from '@hush/common';
import type { ApiCatalog } from '../apis/api-catalog.js';
import type { Client, ClientsRepository } from '../clients/clients.repository.js';
import type { ClientLookup } from '../clients/client-cache.js';
import type { UsersRepository } from '../accounts/users.repository.js';
import type { FailureLimits } from '../ratelimit/failure-limits.js';
import { REALM_PATH, type Config } from '../config.js';
import { SIGNING_ALGS, type SigningAlg } from '../keys/keys.js';
import { ID_TOKEN_TTL } from '../keys/rotation.js';
import type { Db } from '../db/knex.js';
import { clientMetadata } from './client-metadata.js';
import { createAdapterClass } from './adapter.repository.js';
import { clientCredentialsRefresh } from './client-credentials-refresh.js';
import { pinPublicOrigin, publicDocumentCaching } from './public-url.js';
import { clientAuthLimiter, compareClientSecret } from './rate-limits.js';
import { OIDC_SCOPES, withDefaultUserScopes } from './scopes.js';
import { answerUnavailable } from './unavailable.js';
import { keycloakTokenResponses, shapeJwtAccessToken } from './keycloak-tokens.js';
import { realmInfo } from './realm-info.js';
import type { EnvelopeKeys } from './token-envelope.js';
import { tokenRequestForms } from './token-requests.js';
import { keycloakUserinfo } from './userinfo.js';
import { allowFormTarget, errorPage, securePage } from '@hush/common';
import { logoutPage, loggedOutPage } from '../interactions/views.js';
import { clientBasedCORS, credentialedCors } from './cors.js';
import { DEVICE_CODE_TTL, deviceFlowFeature, deviceFormOrigin } from './device-flow.js';
import { sessionIframe } from './session-iframe.js';
import { sessionStateProtocol } from './session-state.js';
import type { Revocations } from '../revocations/revocations.js';
import { withGrantClaim } from '../revocations/grant-claim.js';
import { accessTokenLiveness, jwtTokenEndpoints } from '../revocations/jwt-token-endpoints.js';
import { KEY_LABELS } from '../key-labels.js';

export interface ProviderDeps {
  config: Config;
  db: Db;
  clients: ClientLookup;
  /** Web origins across all clients: for CORS preflights and the session iframe's framing. */
  webOrigins: Pick<ClientsRepository, 'isWebOrigin' | 'allWebOrigins'>;
  users: UsersRepository;
  apis: ApiCatalog;
  limiter: FailureLimits;
  jwks: JWK[];
  /** Signs and opens the JWT envelopes of stored tokens (token-envelope.ts), for the same key set. */
  envelopeKeys: EnvelopeKeys;
  cookieKeys: string[];
  logger: Logger;
  revocations: Revocations;
}

const PROTOCOL = '/protocol/openid-connect';
const SESSION_TTL = 14 * 24 * 3600;

/** oidc-provider configured as a Keycloak realm: paths, grants, JWT access tokens per API. */
export function buildProvider(deps: ProviderDeps): Provider {
  const { config, clients, users, apis, limiter } = deps;
  const defaultAlg = config.DEFAULT_SIGNING_ALG;

  const findClient = async (id: string): Promise<AdapterPayload | undefined> => {
    const client = await clients.find(id);
    return client && adapterPayload(client, Provider.ctx, defaultAlg);
  };

  const configuration: Configuration = {
    adapter: createAdapterClass(deps.db, findClient, { grantRevoked: (grantId) => deps.revocations.revokeGrant(grantId) }, deriveKey(config.MASTER_KEY, KEY_LABELS.deviceCodes)),
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
      pushed_authorization_request: `${PROTOCOL}/ext/par/request`,
      device_authorization: `${PROTOCOL}/auth/device`,
      code_verification: '/device',
    },
    // Keycloak's session iframe (session-iframe.ts); oidc-provider has no check-session feature.
    discovery: { check_session_iframe: `${config.issuer}${PROTOCOL}/login-status-iframe.html` },
    clientBasedCORS,
    scopes: [...OIDC_SCOPES],
    claims: {
      // typ and azp: ID tokens only (Keycloak's `typ: ID`); findAccount returns them for no other use.
      openid: ['sub', 'typ', 'azp'],
      profile: ['preferred_username', 'name'],
      email: ['email'],
    },
    responseTypes: ['code', 'id_token token', 'none'],
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    // Client secrets are stored hashed, so no HMAC (HS*) use of them is possible; asymmetric only.
    // RS256 first: OpenID Connect Discovery requires it, Keycloak's adapters verify only it (ADR 4).
    enabledJWA: {
      idTokenSigningAlgValues: [...SIGNING_ALGS],
      userinfoSigningAlgValues: [...SIGNING_ALGS],
      introspectionSigningAlgValues: [...SIGNING_ALGS],
      authorizationSigningAlgValues: [...SIGNING_ALGS],
    },
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      id_token_signed_response_alg: defaultAlg,
      token_endpoint_auth_method: 'client_secret_basic',
    },
    extraClientMetadata: { properties: ['api_scopes', 'organization_id', 'organization_name', 'client_credentials_refresh', 'pkce_method', 'web_origins'] },
    // As Keycloak: required of public clients, and of a confidential one whose pkce.code.challenge.method is set.
    pkce: { required: (_ctx, client) => client.tokenEndpointAuthMethod === 'none' || clientMetadata(client)['pkce_method'] === 'S256' },
    formats: { customizers: { jwt: (ctx, token, jwt) => shapeJwtAccessToken(ctx, token, jwt) } },
    // Runs after oidc-provider's own scope checks: adds the default user scopes (scopes.ts).
    extraParams: { scope: withDefaultUserScopes },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      deviceFlow: deviceFlowFeature(),
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
            // The client's "access token signature algorithm" (or the realm's), as its ID tokens.
            jwt: { sign: { alg: (clientMetadata(client)['id_token_signed_response_alg'] as SigningAlg | undefined) ?? defaultAlg } },
          };
        },
      },
    },
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 300,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 300,
      AuthorizationCode: 60,
      DeviceCode: DEVICE_CODE_TTL,
      IdToken: ID_TOKEN_TTL,
      Interaction: 3600,
      Session: SESSION_TTL,
      Grant: config.REFRESH_TOKEN_TTL,
      RefreshToken: config.REFRESH_TOKEN_TTL,
    },
    // Keycloak issues refresh tokens to every client allowed the grant, not only with offline_access.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Always rotate; presenting a rotated token again revokes the grant (RFC 9700 §4.14.2).
    rotateRefreshToken: () => true,
    findAccount: async (ctx, id) => findAccount(id, users, clients, ctx.oidc?.client?.clientId),
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

  // Resource servers refuse the access tokens of a revoked grant by this claim (ADR 10).
  configuration.extraTokenClaims = withGrantClaim(configuration.extraTokenClaims);

  const provider = new Provider(config.issuer, configuration);
  provider.proxy = config.TRUST_PROXY;
  pinPublicOrigin(provider, config.AUTH_URL);

  // Stored secrets are SHA-256 hashes (clients/client-secret.ts); compared by hash, reading the failure counters meanwhile.
  const compare = function compare(this: { clientId: string; clientSecret: string }, actual: string) {
    return compareClientSecret(limiter, this.clientId, actual, this.clientSecret);
  };
  provider.Client.prototype.compareClientSecret = compare;
  // Keycloak puts the session id (`sid`) in every token of a session, for every client.
  provider.Client.prototype.includeSid = always;
  allowDevelopmentRedirects(provider);

  // Outermost: it rewrites the final answer of a request that failed on an unavailable dependency.
  answerUnavailable(provider, deps.logger, renderError);
  provider.use(credentialedCors(deps.webOrigins));
  provider.use(sessionIframe(provider, { publicUrl: config.AUTH_URL, allWebOrigins: () => deps.webOrigins.allWebOrigins() }));
  provider.use(deviceFormOrigin(new URL(config.AUTH_URL).origin));
  sessionStateProtocol(provider, { publicUrl: config.AUTH_URL, sessionTtl: SESSION_TTL });
  provider.use(jwtTokenEndpoints({ provider, issuer: config.issuer, jwks: deps.jwks, revocations: deps.revocations, logger: deps.logger }));
  provider.use(clientAuthLimiter(limiter));
  const envelopes = () => deps.envelopeKeys;
  provider.use(realmInfo(config.issuer, deps.jwks));
  provider.use(parAtHushPath);
  provider.use(tokenRequestForms(envelopes));
  provider.use(keycloakUserinfo(envelopes, users, accessTokenLiveness(provider, deps.revocations)));
  // Outside clientCredentialsRefresh: it wraps the refresh token that one adds.
  provider.use(keycloakTokenResponses(envelopes, defaultAlg));
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
function adapterPayload(client: Client, ctx: KoaContextWithOIDC | undefined, defaultAlg: SigningAlg): AdapterPayload {
  const basic = /^basic /i.test(ctx?.get('authorization') ?? '');
  let built = payloads.get(client);
  if (!built) payloads.set(client, (built = {}));
  const variant = basic ? 'basic' : 'post';
  return (built[variant] ??= Object.freeze(buildPayload(client, basic, defaultAlg)));
}

function buildPayload(client: Client, basic: boolean, defaultAlg: SigningAlg): AdapterPayload {
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
    pkce_method: client.pkceMethod ?? undefined,
    id_token_signed_response_alg: client.signingAlg ?? defaultAlg,
    web_origins: client.webOrigins,
  };
}

/**
 * oidc-provider refuses http and localhost redirect URIs of implicit-flow clients; Hush's one rule
 * (clients/redirect-uris.ts, applied when a client is created) allows http on the loopback host for
 * development, as Keycloak. Its two checks are named by code so that they can defer to that rule.
 */
function allowDevelopmentRedirects(provider: Provider): void {
  type Invalidate = (this: unknown, message: string, code?: string) => void;
  const schema = (provider.Client as unknown as { Schema: { prototype: { invalidate: Invalidate } } }).Schema.prototype;
  const invalidate = schema.invalidate;
  const deferToHushRule = function (this: unknown, message: string, code?: string) {
    if (code === 'implicit-force-https' || code === 'implicit-forbid-localhost') return;
    invalidate.call(this, message, code);
  };
  schema.invalidate = deferToHushRule;
}

const always = () => true;

/** PAR is at Keycloak's path (routes above); Hush's earlier one, `/request`, stays an alias. */
async function parAtHushPath(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  if (ctx.path === '/request') ctx.path = `${PROTOCOL}/ext/par/request`;
  await next();
}

async function resourceForScopes(ctx: KoaContextWithOIDC, apis: ApiCatalog): Promise<string | undefined> {
  const asked = typeof ctx.oidc.params?.scope === 'string' ? ctx.oidc.params.scope : '';
  let requested = asked.split(' ').filter((s) => s && !OIDC_SCOPES.includes(s));
  if (requested.length === 0) {
    if (ctx.oidc.params?.grant_type !== 'client_credentials' || !ctx.oidc.client) return undefined;
    // As Keycloak: no API scope named (no scope, or only `openid`), the client's default scopes.
    requested = defaultApiScopes(ctx.oidc.client);
    if (requested.length === 0) return undefined;
    (ctx.oidc.params as Record<string, unknown>)['scope'] = [...asked.split(' ').filter(Boolean), ...requested].join(' ');
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

/** A client's API scopes: what a client-credentials request naming none gets (Keycloak's default client scopes). */
function defaultApiScopes(client: NonNullable<KoaContextWithOIDC['oidc']['client']>): string[] {
  return ((clientMetadata(client)['api_scopes'] as string[] | undefined) ?? []).slice();
}

/** `azp`: the client the ID token is for (Keycloak sets both `typ` and `azp` in every ID token). */
async function findAccount(id: string, users: UsersRepository, clients: ClientLookup, azp: string | undefined): Promise<Account | undefined> {
  if (isUuid(id)) {
    const user = await users.findById(id);
    if (!user) return undefined;
    return {
      accountId: user.id,
      claims: (use: string) => ({
        sub: user.id,
        ...(use === 'id_token' ? { typ: 'ID', ...(azp ? { azp } : {}) } : {}),
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
