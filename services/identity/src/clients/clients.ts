import { isUuid, randomToken } from '@hush/common';
import type { ApisRepository } from '../apis/apis.repository.js';
import type { OrganizationsRepository } from '../accounts/organizations.repository.js';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { OIDC_SCOPES } from '../oidc/scopes.js';
import { newClientSecret } from './client-secret.js';
import type { Client, ClientsRepository } from './clients.repository.js';
import type { Revocations } from '../revocations/revocations.js';

export const GRANT_TYPES = ['client_credentials', 'authorization_code', 'implicit', 'refresh_token'] as const;

export interface CreateClientInput {
  clientId?: string | undefined;
  name: string;
  grantTypes: string[];
  scopes: string[];
  redirectUris?: string[] | undefined;
  postLogoutRedirectUris?: string[] | undefined;
  organization?: string | undefined;
  /** A public client (a browser or native app) has no secret; it can only use code + PKCE or implicit. */
  public?: boolean | undefined;
}

const CLIENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;

/** What the client use-cases may reach; each takes the narrowest Pick of it. Wired in context.ts. */
export interface ClientsDeps {
  clients: ClientsRepository;
  apis: ApisRepository;
  organizations: OrganizationsRepository;
  revocations: Revocations;
}

/** Returns the client and, for confidential clients, its secret: shown once, stored only as a hash. */
export async function createClient(
  deps: Pick<ClientsDeps, 'clients' | 'apis' | 'organizations'>,
  input: CreateClientInput,
): Promise<{ client: Client; clientSecret: string | undefined }> {
  const clientId = input.clientId ?? `client-${randomToken(9)}`;
  // User ids are UUIDs; a client id must never look like one, since a service account's `sub` is its client id.
  if (!CLIENT_ID.test(clientId) || isUuid(clientId)) {
    throw new InvalidInputError('client id must be 3-64 characters of letters, digits, ".", "_" or "-", and not a UUID');
  }
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
  for (const uri of [...redirectUris, ...(input.postLogoutRedirectUris ?? [])]) {
    if (!URL.canParse(uri) || uri.includes('#')) throw new InvalidInputError(`redirect URI ${uri} must be an absolute URL without a fragment`);
  }

  const scopes = [...new Set(input.scopes)];
  await assertScopesExist(deps, scopes);

  let organizationId: string | null = null;
  if (input.organization) {
    const org = await deps.organizations.find(input.organization);
    if (!org) throw new NotFoundError(`organization ${input.organization}`);
    organizationId = org.id;
  }

  const responseTypes = [...(grantTypes.includes('authorization_code') ? ['code'] : []), ...(grantTypes.includes('implicit') ? ['id_token token'] : [])];
  const secret = isPublic ? undefined : newClientSecret();
  const client = await deps.clients.create({
    clientId,
    name: input.name.trim(),
    secretHash: secret?.hash ?? null,
    grantTypes,
    responseTypes,
    redirectUris,
    postLogoutRedirectUris: input.postLogoutRedirectUris ?? [],
    scopes,
    organizationId,
    // Keycloak's per-client "use refresh tokens for client credentials grant": on when the
    // client may use both grants.
    clientCredentialsRefresh: grantTypes.includes('client_credentials') && grantTypes.includes('refresh_token'),
  });
  return { client, clientSecret: secret?.secret };
}

/** Replaces the secret at once: the old one stops working on the next request. */
export async function rotateClientSecret(deps: Pick<ClientsDeps, 'clients'>, clientId: string): Promise<{ clientId: string; clientSecret: string }> {
  const client = await deps.clients.find(clientId);
  if (!client) throw new NotFoundError(`client ${clientId}`);
  if (client.secretHash === null) throw new InvalidInputError(`client ${clientId} is public and has no secret`);
  const secret = newClientSecret();
  await deps.clients.setSecretHash(clientId, secret.hash);
  return { clientId, clientSecret: secret.secret };
}

/**
 * Deletes the client; its secret stops working on every replica at once (see client-cache.ts), and
 * its access tokens at the resource servers (ADR 9). The revocation is announced first: if Redis
 * cannot take it, the client stays, rather than leaving tokens the resource servers still accept.
 */
export async function deleteClient(deps: Pick<ClientsDeps, 'clients' | 'revocations'>, clientId: string): Promise<void> {
  if (!(await deps.clients.find(clientId))) throw new NotFoundError(`client ${clientId}`);
  await deps.revocations.revokeClient(clientId);
  if (!(await deps.clients.delete(clientId))) throw new NotFoundError(`client ${clientId}`);
}

async function assertScopesExist(deps: Pick<ClientsDeps, 'apis'>, scopes: string[]): Promise<void> {
  const apiScopes = scopes.filter((s) => !OIDC_SCOPES.includes(s));
  const owners = await deps.apis.findOwnersOfScopes(apiScopes);
  const known = new Set(owners.flatMap((a) => a.scopes));
  const missing = apiScopes.filter((s) => !known.has(s));
  if (missing.length > 0) throw new InvalidInputError(`unknown scope(s): ${missing.join(', ')} (create the API first)`);
}
