import { z } from 'zod';
import { InvalidInputError } from '../errors.js';
import { type Client, type CreateClientInput, DEVICE_CODE_GRANT } from '../clients/index.js';

/**
 * Keycloak's ClientRepresentation and how it maps onto a Hush client:
 * - `serviceAccountsEnabled` is the client-credentials grant, `standardFlowEnabled` authorization
 *   code (on by default when redirect URIs are given), `implicitFlowEnabled` implicit, the
 *   attribute `oauth2.device.authorization.grant.enabled` the device grant; refresh tokens come
 *   with the interactive grants unless `use.refresh.tokens` is "false", and with client
 *   credentials when `client_credentials.use_refresh_token` is "true";
 * - `directAccessGrantsEnabled: true` (the password grant) and `bearerOnly: true` are refused: Hush
 *   has neither;
 * - `defaultClientScopes` and `optionalClientScopes` are the client's scopes; Keycloak's built-in
 *   scope names Hush has no counterpart for (roles, web-origins, acr, basic, ...) are accepted and
 *   ignored, so tools that send Keycloak's defaults work;
 * - attributes carry `pkce.code.challenge.method`, `access.token.signed.response.alg` and
 *   `post.logout.redirect.uris` (`##`-separated, as Keycloak);
 * - a representation never carries the secret (read it at `/client-secret`).
 */

const attributeValue = z.union([z.string(), z.boolean(), z.number()]).transform(String);

export const clientRepresentationInput = z
  .object({
    id: z.string().optional(),
    clientId: z.string().min(1).optional(),
    name: z.string().nullish(),
    description: z.string().nullish(),
    enabled: z.boolean().optional(),
    secret: z.string().optional(),
    publicClient: z.boolean().optional(),
    bearerOnly: z.boolean().optional(),
    consentRequired: z.boolean().optional(),
    serviceAccountsEnabled: z.boolean().optional(),
    standardFlowEnabled: z.boolean().optional(),
    implicitFlowEnabled: z.boolean().optional(),
    directAccessGrantsEnabled: z.boolean().optional(),
    redirectUris: z.array(z.string()).optional(),
    webOrigins: z.array(z.string()).optional(),
    attributes: z.record(z.string(), attributeValue.nullable()).optional(),
    defaultClientScopes: z.array(z.string()).optional(),
    optionalClientScopes: z.array(z.string()).optional(),
    protocol: z.string().optional(),
  })
  .loose();
export type ClientRepresentationInput = z.infer<typeof clientRepresentationInput>;

export const clientRepresentation = z.object({
  id: z.string(),
  clientId: z.string(),
  name: z.string(),
  description: z.string().optional(),
  enabled: z.boolean(),
  protocol: z.literal('openid-connect'),
  clientAuthenticatorType: z.literal('client-secret'),
  publicClient: z.boolean(),
  bearerOnly: z.boolean(),
  consentRequired: z.boolean(),
  serviceAccountsEnabled: z.boolean(),
  standardFlowEnabled: z.boolean(),
  implicitFlowEnabled: z.boolean(),
  directAccessGrantsEnabled: z.boolean(),
  frontchannelLogout: z.boolean(),
  fullScopeAllowed: z.boolean(),
  surrogateAuthRequired: z.boolean(),
  alwaysDisplayInConsole: z.boolean(),
  notBefore: z.number(),
  nodeReRegistrationTimeout: z.number(),
  redirectUris: z.array(z.string()),
  webOrigins: z.array(z.string()),
  attributes: z.record(z.string(), z.string()),
  defaultClientScopes: z.array(z.string()),
  optionalClientScopes: z.array(z.string()),
  access: z.object({ view: z.boolean(), configure: z.boolean(), manage: z.boolean() }),
});
export type ClientRepresentation = z.infer<typeof clientRepresentation>;

/** Keycloak's built-in client scopes without a Hush counterpart. */
const KEYCLOAK_ONLY_SCOPES = new Set(['web-origins', 'acr', 'roles', 'basic', 'microprofile-jwt', 'address', 'phone', 'organization', 'service_account']);

/** `manage`: whether the caller may act on this client (admin-authority.ts); Keycloak's console reads `access` to offer actions. */
export function toClientRepresentation(c: Client, manage = false): ClientRepresentation {
  const grants = new Set(c.grantTypes);
  return {
    id: c.id,
    clientId: c.clientId,
    name: c.name,
    ...(c.description ? { description: c.description } : {}),
    enabled: c.enabled,
    protocol: 'openid-connect',
    clientAuthenticatorType: 'client-secret',
    publicClient: c.secretHash === null,
    bearerOnly: false,
    consentRequired: c.consentRequired,
    serviceAccountsEnabled: grants.has('client_credentials'),
    standardFlowEnabled: grants.has('authorization_code'),
    implicitFlowEnabled: grants.has('implicit'),
    directAccessGrantsEnabled: false,
    frontchannelLogout: false,
    fullScopeAllowed: true,
    surrogateAuthRequired: false,
    alwaysDisplayInConsole: false,
    notBefore: 0,
    nodeReRegistrationTimeout: -1,
    redirectUris: c.redirectUris,
    webOrigins: c.webOrigins,
    attributes: {
      'oauth2.device.authorization.grant.enabled': String(grants.has(DEVICE_CODE_GRANT)),
      'use.refresh.tokens': String(grants.has('refresh_token')),
      'client_credentials.use_refresh_token': String(c.clientCredentialsRefresh),
      'pkce.code.challenge.method': c.pkceMethod ?? '',
      'post.logout.redirect.uris': c.postLogoutRedirectUris.join('##'),
      ...(c.signingAlg ? { 'access.token.signed.response.alg': c.signingAlg } : {}),
      ...(c.organizationId ? { 'hush.organization.id': c.organizationId } : {}),
    },
    defaultClientScopes: c.scopes,
    optionalClientScopes: [],
    access: { view: true, configure: manage, manage },
  };
}

/**
 * The use-case's input from a representation: for an update, the stored client's representation
 * with the request's fields laid over it (Keycloak's PUT keeps what it leaves out).
 */
export function toClientInput(rep: ClientRepresentationInput): CreateClientInput & { clientId: string } {
  if (!rep.clientId) throw new InvalidInputError('clientId is required');
  if (rep.directAccessGrantsEnabled === true)
    throw new InvalidInputError('directAccessGrantsEnabled: Hush has no password grant (use the authorization code flow, or the device flow)');
  if (rep.bearerOnly === true) throw new InvalidInputError('bearerOnly: Hush has no bearer-only clients (register an API for a resource server)');
  const attrs = rep.attributes ?? {};
  const flag = (name: string) => attrs[name] === 'true';
  const redirectUris = rep.redirectUris ?? [];
  const standard = rep.standardFlowEnabled ?? redirectUris.length > 0;
  const implicit = rep.implicitFlowEnabled === true;
  const device = flag('oauth2.device.authorization.grant.enabled');
  const serviceAccounts = rep.serviceAccountsEnabled === true;
  const interactiveRefresh = (standard || device) && attrs['use.refresh.tokens'] !== 'false';
  const grantTypes = [
    ...(serviceAccounts ? ['client_credentials'] : []),
    ...(standard ? ['authorization_code'] : []),
    ...(implicit ? ['implicit'] : []),
    ...(device ? [DEVICE_CODE_GRANT] : []),
    ...(interactiveRefresh || (serviceAccounts && flag('client_credentials.use_refresh_token')) ? ['refresh_token'] : []),
  ];
  if (grantTypes.length === 0) {
    throw new InvalidInputError('the client needs a flow: standardFlowEnabled with redirectUris, serviceAccountsEnabled, implicitFlowEnabled or the device grant');
  }
  const scopes = [...(rep.defaultClientScopes ?? []), ...(rep.optionalClientScopes ?? [])].filter((s) => !KEYCLOAK_ONLY_SCOPES.has(s));
  const postLogout = attrs['post.logout.redirect.uris'];
  const pkce = attrs['pkce.code.challenge.method'];
  const alg = attrs['access.token.signed.response.alg'];
  return {
    clientId: rep.clientId,
    name: rep.name || rep.clientId,
    description: rep.description ?? null,
    enabled: rep.enabled ?? true,
    public: rep.publicClient === true,
    secret: rep.secret,
    grantTypes,
    scopes: [...new Set(scopes)],
    redirectUris,
    postLogoutRedirectUris: postLogout ? postLogout.split('##').filter(Boolean) : [],
    webOrigins: rep.webOrigins,
    pkceMethod: pkce ? pkce : undefined,
    consentRequired: rep.consentRequired === true,
    signingAlg: alg ? alg : undefined,
    organization: attrs['hush.organization.id'] ?? undefined,
  };
}
