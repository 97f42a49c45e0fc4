import { randomUUID } from 'node:crypto';
import { ALL_SECRETS_SCOPES, WEB_CALLBACK_PATH, WEB_CLIENT_ID, WEB_SIGNED_OUT_PATH } from '@hush/contracts';
import { isUuid, randomToken } from '@hush/common';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { hashClientSecret, newClientSecret } from './client-secret.js';
import { redirectUriProblem } from './redirect-uris.js';
import type { Client, ClientsRepository } from './clients.repository.js';
import type { ClientSecretSeal } from './client-secret-seal.js';
import type { OrganizationsRepository } from '../organizations/index.js';
import type { ApisRepository } from '../apis/index.js';
import { SIGNING_ALGS, type SigningAlg } from '../keys/index.js';
import type { Revocations } from '../revocations/index.js';
import { OIDC_SCOPES } from '../oidc/scopes.js';

/** RFC 8628's device authorization grant, as Keycloak's "OAuth 2.0 Device Authorization Grant" switch. */
export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
export const GRANT_TYPES = ['client_credentials', 'authorization_code', 'implicit', 'refresh_token', DEVICE_CODE_GRANT] as const;

export interface CreateClientInput {
  clientId?: string | undefined;
  name: string;
  grantTypes: string[];
  scopes: string[];
  redirectUris?: string[] | undefined;
  postLogoutRedirectUris?: string[] | undefined;
  /** Keycloak's "Web origins": origins, or `+` for those of the redirect URIs (the default). */
  webOrigins?: string[] | undefined;
  organization?: string | undefined;
  /** A public client (a browser or native app) has no secret; it can only use code + PKCE or implicit. */
  public?: boolean | undefined;
  /** Keycloak's "access token signature algorithm" (also used for ID tokens); undefined: the realm default. */
  signingAlg?: string | undefined;
  /** Keycloak's `pkce.code.challenge.method`: 'S256' requires PKCE of this client (public clients always need it). */
  pkceMethod?: string | undefined;
  /** Keycloak's `consentRequired`: the person is asked (and the answer remembered) before the client gets their data. */
  consentRequired?: boolean | undefined;
  /** Keycloak's `secret` at creation: this secret instead of a generated one (at least 32 characters). */
  secret?: string | undefined;
  enabled?: boolean | undefined;
  description?: string | null | undefined;
}

/** A given client secret is stored as a single SHA-256 (ADR 3), safe only for a long random value. */
export const MIN_GIVEN_SECRET_LENGTH = 32;

const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;

/** What the client use-cases may reach; each takes the narrowest Pick of it. Wired in context.ts. */
export interface ClientsDeps {
  clients: ClientsRepository;
  apis: ApisRepository;
  organizations: OrganizationsRepository;
  revocations: Revocations;
  secretSeal: ClientSecretSeal;
}

/** Returns the client and, for confidential clients, its secret: shown once unless read-back is on, stored as a hash. */
export async function createClient(
  deps: Pick<ClientsDeps, 'clients' | 'apis' | 'organizations'> & Partial<Pick<ClientsDeps, 'secretSeal'>>,
  input: CreateClientInput,
): Promise<{ client: Client; clientSecret: string | undefined }> {
  const clientId = input.clientId ?? `client-${randomToken(9)}`;
  // User ids are UUIDs; a client id must never look like one, since a service account's `sub` is its client id.
  if (!CLIENT_ID.test(clientId) || isUuid(clientId)) {
    throw new InvalidInputError('client id must be 3-64 characters of letters, digits, ".", "_" or "-", and not a UUID');
  }
  const fields = await clientFields(deps, input);
  if (input.secret !== undefined && fields.secretHash === null) throw new InvalidInputError('a public client has no secret');
  if (input.secret !== undefined && input.secret.length < MIN_GIVEN_SECRET_LENGTH) {
    throw new InvalidInputError(`a given client secret must be at least ${MIN_GIVEN_SECRET_LENGTH} characters (e.g. openssl rand -hex 32)`);
  }
  const id = randomUUID();
  const secret = fields.secretHash === null ? undefined : input.secret !== undefined ? { secret: input.secret, hash: hashClientSecret(input.secret) } : newClientSecret();
  const client = await deps.clients.create({
    ...fields,
    id,
    clientId,
    secretHash: secret?.hash ?? null,
    secretSealed: secret && deps.secretSeal ? deps.secretSeal.seal(id, secret.secret) : null,
  });
  return { client, clientSecret: secret?.secret };
}

/**
 * Replaces a client's settings with `input` (the caller merges what it leaves out, as Keycloak's
 * PUT): the same rules as creation. A client turned public loses its secret; one turned
 * confidential gets a new one, returned (read it back, or rotate).
 */
export async function updateClient(
  deps: Pick<ClientsDeps, 'clients' | 'apis' | 'organizations' | 'secretSeal' | 'revocations'>,
  clientId: string,
  input: CreateClientInput,
): Promise<Client> {
  const current = await deps.clients.find(clientId);
  if (!current) throw new NotFoundError(`client ${clientId}`);
  const { secretHash, ...fields } = await clientFields(deps, input);
  const wasPublic = current.secretHash === null;
  const isPublic = secretHash === null;
  await deps.clients.update(clientId, fields);
  if (wasPublic && !isPublic) {
    const secret = newClientSecret();
    await deps.clients.setSecret(clientId, secret.hash, deps.secretSeal.seal(current.id, secret.secret));
  } else if (!wasPublic && isPublic) {
    await deps.revocations.revokeClient(clientId);
    await deps.clients.update(clientId, { secretHash: null, secretSealed: null });
  }
  if (current.enabled && input.enabled === false) await deps.revocations.revokeClient(clientId);
  return (await deps.clients.find(clientId)) as Client;
}

/** Everything of a client but its ids and secret, checked by the rules of creation. `secretHash` is '' for a confidential client, null for a public one. */
async function clientFields(deps: Pick<ClientsDeps, 'apis' | 'organizations'>, input: CreateClientInput) {
  if (!input.name.trim()) throw new InvalidInputError('name is required');

  const grantTypes = [...new Set(input.grantTypes)];
  const unknown = grantTypes.filter((g) => !(GRANT_TYPES as readonly string[]).includes(g));
  if (grantTypes.length === 0 || unknown.length > 0) {
    throw new InvalidInputError(`grant types must be some of ${GRANT_TYPES.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
  }
  const isPublic = input.public === true;
  if (isPublic && grantTypes.includes('client_credentials')) throw new InvalidInputError('a public client cannot use client_credentials');
  if (grantTypes.length === 1 && grantTypes[0] === 'refresh_token') throw new InvalidInputError('refresh_token needs another grant type');

  const redirectUris = input.redirectUris ?? [];
  const interactive = grantTypes.includes('authorization_code') || grantTypes.includes('implicit');
  if (interactive && redirectUris.length === 0) throw new InvalidInputError('authorization_code and implicit need at least one redirect URI');
  const implicit = grantTypes.includes('implicit');
  for (const uri of [...redirectUris, ...(input.postLogoutRedirectUris ?? [])]) {
    const problem = redirectUriProblem(uri, { implicit });
    if (problem) throw new InvalidInputError(problem);
  }
  if (input.signingAlg !== undefined && !(SIGNING_ALGS as readonly string[]).includes(input.signingAlg)) {
    throw new InvalidInputError(`signing algorithm must be one of ${SIGNING_ALGS.join(', ')}`);
  }
  if (input.pkceMethod !== undefined && input.pkceMethod !== 'S256') throw new InvalidInputError('the PKCE method must be S256 (plain is not supported)');

  const webOrigins = parseWebOrigins(input.webOrigins);
  const scopes = [...new Set(input.scopes)];
  await assertScopesExist(deps, scopes);

  let organizationId: string | null = null;
  if (input.organization) {
    const org = await deps.organizations.find(input.organization);
    if (!org) throw new NotFoundError(`organization ${input.organization}`);
    organizationId = org.id;
  }

  const responseTypes = [...(grantTypes.includes('authorization_code') ? ['code'] : []), ...(grantTypes.includes('implicit') ? ['id_token token'] : [])];
  return {
    name: input.name.trim(),
    enabled: input.enabled ?? true,
    description: input.description ?? null,
    secretHash: isPublic ? null : '',
    grantTypes,
    responseTypes,
    redirectUris,
    postLogoutRedirectUris: input.postLogoutRedirectUris ?? [],
    webOrigins,
    scopes,
    organizationId,
    // Keycloak's per-client "use refresh tokens for client credentials grant": on when the
    // client may use both grants.
    clientCredentialsRefresh: grantTypes.includes('client_credentials') && grantTypes.includes('refresh_token'),
    signingAlg: (input.signingAlg as SigningAlg | undefined) ?? null,
    pkceMethod: input.pkceMethod === 'S256' ? ('S256' as const) : null,
    consentRequired: input.consentRequired === true,
  };
}

/**
 * Replaces the secret at once: the old one stops working on the next request, on every replica
 * (the change is announced to each one's client cache, client-cache.ts), and the client's access
 * tokens issued until now are announced revoked (ADR 10), as whoever held the old secret may hold
 * them. The revocation comes first: if Redis cannot take it, the secret stays as it was.
 */
export async function rotateClientSecret(
  deps: Pick<ClientsDeps, 'clients' | 'revocations'> & Partial<Pick<ClientsDeps, 'secretSeal'>>,
  clientId: string,
  secret: { secret: string; hash: string } = newClientSecret(),
): Promise<{ clientId: string; clientSecret: string }> {
  const client = await deps.clients.find(clientId);
  if (!client) throw new NotFoundError(`client ${clientId}`);
  if (client.secretHash === null) throw new InvalidInputError(`client ${clientId} is public and has no secret`);
  await deps.revocations.revokeClient(clientId);
  await deps.clients.setSecret(clientId, secret.hash, deps.secretSeal ? deps.secretSeal.seal(client.id, secret.secret) : null);
  return { clientId, clientSecret: secret.secret };
}

/** The current secret of a confidential client, opened from its sealed copy (Keycloak's tools read it back). */
export async function readClientSecret(deps: Pick<ClientsDeps, 'clients' | 'secretSeal'>, clientId: string): Promise<string> {
  const client = await deps.clients.find(clientId);
  if (!client) throw new NotFoundError(`client ${clientId}`);
  if (client.secretHash === null) throw new InvalidInputError(`client ${clientId} is public and has no secret`);
  return deps.secretSeal.open(client.id, client.secretSealed);
}

/**
 * Deletes the client; its secret stops working on every replica at once (see client-cache.ts), and
 * its access tokens at the resource servers (ADR 10). The revocation is announced first: if Redis
 * cannot take it, the client stays, rather than leaving tokens the resource servers still accept.
 */
export async function deleteClient(deps: Pick<ClientsDeps, 'clients' | 'revocations'>, clientId: string): Promise<void> {
  if (!(await deps.clients.find(clientId))) throw new NotFoundError(`client ${clientId}`);
  await deps.revocations.revokeClient(clientId);
  if (!(await deps.clients.delete(clientId))) throw new NotFoundError(`client ${clientId}`);
}

/**
 * Web origins as Keycloak takes them, minus its `*`: credentialed CORS for any origin would let
 * every site read a signed-in user's tokens. Unset means `+`: a browser client gets CORS for the
 * origins it already redirects to, and a client without redirect URIs gets none.
 */
function parseWebOrigins(input: string[] | undefined): string[] {
  if (input === undefined || input.length === 0) return ['+'];
  const out = new Set<string>();
  for (const entry of input) {
    if (entry === '+') {
      out.add(entry);
      continue;
    }
    const url = URL.parse(entry);
    const bare = url && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password && !entry.endsWith('?') && !entry.endsWith('#');
    if (!url || !bare || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
      throw new InvalidInputError(`web origin ${entry} must be "+" or an origin like https://app.example.com (scheme, host and port only)`);
    }
    out.add(url.origin);
  }
  return [...out];
}

async function assertScopesExist(deps: Pick<ClientsDeps, 'apis'>, scopes: string[]): Promise<void> {
  const apiScopes = scopes.filter((s) => !OIDC_SCOPES.includes(s));
  const owners = await deps.apis.findOwnersOfScopes(apiScopes);
  const known = new Set(owners.flatMap((a) => a.scopes));
  const missing = apiScopes.filter((s) => !known.has(s));
  if (missing.length > 0) throw new InvalidInputError(`unknown scope(s): ${missing.join(', ')} (create the API first)`);
}

/** The algorithm of its ID tokens: what services/secrets/src/web/shared/identity-client.ts verifies. */
const WEB_CLIENT_ALG = 'ES256';

/**
 * Registers (or brings up to date) the secrets web app's client: authorization code + refresh
 * token, redirect `${webUrl}/auth/callback`, post-logout redirect `${webUrl}/auth/signed-out`.
 * `secret` (at least 32 characters, e.g. from SECRETS_WEB_CLIENT_SECRET) becomes its secret, so an
 * operator can hand the same value to both services; without it a new client gets a generated
 * secret, returned this once. A client whose redirect URIs no longer match is replaced (its
 * refresh tokens stop working: its users sign in again). It signs with ES256 whatever the realm
 * default (the web app verifies ID tokens with that algorithm) and must send PKCE.
 */
export async function ensureWebClient(
  deps: Pick<ClientsDeps, 'clients' | 'apis' | 'organizations'>,
  webUrl: string,
  secret: string | undefined,
): Promise<{ client_id: string; redirect_uri: string; created: boolean; client_secret?: string }> {
  if (!URL.canParse(webUrl)) throw new InvalidInputError(`secrets URL ${webUrl} must be an absolute URL`);
  if (secret !== undefined && secret.length < 32) throw new InvalidInputError('SECRETS_WEB_CLIENT_SECRET must be at least 32 characters (e.g. openssl rand -hex 32)');
  const base = webUrl.replace(/\/+$/, '');
  const redirectUri = `${base}${WEB_CALLBACK_PATH}`;
  const postLogout = `${base}${WEB_SIGNED_OUT_PATH}`;
  const existing = await deps.clients.find(WEB_CLIENT_ID);
  const current = existing && existing.redirectUris.join(' ') === redirectUri && existing.postLogoutRedirectUris.join(' ') === postLogout;
  if (current && existing.secretHash && existing.signingAlg === WEB_CLIENT_ALG && existing.pkceMethod === 'S256') {
    if (secret !== undefined && existing.secretHash !== hashClientSecret(secret)) await deps.clients.setSecretHash(WEB_CLIENT_ID, hashClientSecret(secret));
    return { client_id: WEB_CLIENT_ID, redirect_uri: redirectUri, created: false };
  }
  if (existing) await deps.clients.delete(WEB_CLIENT_ID);
  const { clientSecret } = await createClient(deps, {
    clientId: WEB_CLIENT_ID,
    name: 'Hush',
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['openid', 'profile', ...ALL_SECRETS_SCOPES],
    redirectUris: [redirectUri],
    postLogoutRedirectUris: [postLogout],
    signingAlg: WEB_CLIENT_ALG,
    pkceMethod: 'S256',
  });
  if (secret !== undefined) {
    await deps.clients.setSecretHash(WEB_CLIENT_ID, hashClientSecret(secret));
    return { client_id: WEB_CLIENT_ID, redirect_uri: redirectUri, created: true };
  }
  return { client_id: WEB_CLIENT_ID, redirect_uri: redirectUri, created: true, ...(clientSecret ? { client_secret: clientSecret } : {}) };
}
