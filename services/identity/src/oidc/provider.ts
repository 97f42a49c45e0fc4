import Provider, { type Configuration } from 'oidc-provider';
import { KeyRing, trustFunction } from '@hush/common';
import { REALM_PATH } from '../config.js';
import { KEY_LABELS } from '../key-labels.js';
import { accessTokenClaims } from './access-token-claims.js';
import { createAdapterClass } from './adapter.repository.js';
import { apiResources } from './api-resources.js';
import { clientMetadata } from './client-metadata.js';
import { clientPayloads, EXTRA_CLIENT_METADATA } from './client-payload.js';
import { grantLoader } from './consent-grant.js';
import { anonymousSessionsInCookies } from './anonymous-sessions.js';
import { DEVICE_CODE_TTL, deviceFlowFeature } from './device-flow.js';
import { renderError } from './error-page.js';
import { accountFinder } from './find-account.js';
import { clientBasedCORS } from './keycloak/cors.js';
import { useKeycloakMiddlewares } from './keycloak/middlewares.js';
import { rpInitiatedLogout } from './logout.js';
import { applyPatches } from './patches.js';
import type { ProviderDeps } from './provider-deps.js';
import { pinPublicOrigin } from './public-url.js';
import { trustForwardedFrom } from './forwarded-client.js';
import { PROTOCOL, ROUTES } from './routes.js';
import { OIDC_SCOPES, withDefaultUserScopes } from './scopes.js';
import { sessionStateProtocol } from './session-state.js';
import { shapeJwtAccessToken } from './access-token-shape.js';
import { ID_TOKEN_TTL, SIGNING_ALGS } from '../keys/index.js';

const SESSION_TTL = 14 * 24 * 3600;

/** oidc-provider configured as a Keycloak realm: paths, grants, JWT access tokens per API. */
export function buildProvider(deps: ProviderDeps): Provider {
  const { config } = deps;
  const defaultAlg = config.DEFAULT_SIGNING_ALG;
  const findClient = clientPayloads(deps.clients, defaultAlg, config.AUTH_URL);
  const grantRevoked = (grantId: string) => deps.revocations.revokeGrant(grantId);
  const masterKeys = KeyRing.of(config.MASTER_KEY, config.MASTER_KEYS_PREVIOUS, 'MASTER_KEY');

  const configuration: Configuration = {
    // Sessions of no one live in a sealed cookie, not in the database (anonymous-sessions.ts).
    adapter: anonymousSessionsInCookies(
      createAdapterClass(deps.db, findClient, { grantRevoked }, masterKeys.derive(KEY_LABELS.deviceCodes)),
      masterKeys.derive(KEY_LABELS.anonymousSessions),
    ),
    clients: [],
    jwks: { keys: deps.jwks },
    cookies: { keys: deps.cookieKeys, long: { signed: true }, short: { signed: true } },
    routes: ROUTES,
    // Keycloak's session iframe (keycloak/session-iframe.ts); oidc-provider has no check-session feature.
    discovery: { check_session_iframe: `${config.issuer}${PROTOCOL}/login-status-iframe.html` },
    clientBasedCORS,
    scopes: [...OIDC_SCOPES],
    claims: {
      // typ and azp: ID tokens only (Keycloak's `typ: ID`); findAccount returns them for no other use.
      openid: ['sub', 'typ', 'azp'],
      profile: ['preferred_username', 'name'],
      email: ['email', 'email_verified'],
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
    extraClientMetadata: { properties: EXTRA_CLIENT_METADATA },
    // As Keycloak: required of public clients, and of a confidential one whose pkce.code.challenge.method is set.
    pkce: { required: (_ctx, client) => client.tokenEndpointAuthMethod === 'none' || clientMetadata(client)['pkce_method'] === 'S256' },
    formats: { customizers: { jwt: shapeJwtAccessToken } },
    // Runs after oidc-provider's own scope checks: adds the default user scopes (scopes.ts).
    extraParams: { scope: withDefaultUserScopes },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      deviceFlow: deviceFlowFeature(),
      rpInitiatedLogout: rpInitiatedLogout(),
      resourceIndicators: apiResources(deps.apis, defaultAlg),
    },
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 300,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? 300,
      AuthorizationCode: 60,
      DeviceCode: DEVICE_CODE_TTL,
      IdToken: ID_TOKEN_TTL,
      // Minutes, not an hour: what an anonymous caller stores goes soon (INTERACTION_TTL, config.ts).
      Interaction: config.INTERACTION_TTL,
      Session: SESSION_TTL,
      Grant: config.REFRESH_TOKEN_TTL,
      RefreshToken: config.REFRESH_TOKEN_TTL,
    },
    // Keycloak issues refresh tokens to every client allowed the grant, not only with offline_access.
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Always rotate; presenting a rotated token again revokes the grant (RFC 9700 §4.14.2).
    rotateRefreshToken: () => true,
    findAccount: accountFinder(deps.users, deps.clients),
    extraTokenClaims: accessTokenClaims(deps.users, deps.adminRoles),
    // Consent only from clients that require it, and remembered (consent-grant.ts).
    loadExistingGrant: grantLoader(deps.consents),
    interactions: { url: (_ctx, interaction) => `${REALM_PATH}/login-actions/${interaction.uid}` },
    renderError,
  };

  const provider = new Provider(config.issuer, configuration);
  trustForwardedFrom(provider, trustFunction(config.TRUST_PROXY));
  pinPublicOrigin(provider, config.AUTH_URL);
  applyPatches(provider, { failures: deps.limiter });
  sessionStateProtocol(provider, { publicUrl: config.AUTH_URL, sessionTtl: SESSION_TTL });
  useKeycloakMiddlewares(provider, deps);
  return provider;
}
