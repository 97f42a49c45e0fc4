/** Keycloak's protocol prefix under the realm: every endpoint oidc-provider serves lives below it. */
export const PROTOCOL = '/protocol/openid-connect';

/** oidc-provider's routes at Keycloak's paths (relative to the realm, where the provider is mounted). */
export const ROUTES = {
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
} as const;

/** Hush's earlier path of pushed authorization requests, still accepted (keycloak/par-alias.ts). */
export const LEGACY_PAR_PATH = '/request';
