import { isUuid, randomToken } from '@hush/common';
import type { ApisRepository } from '../apis/apis.repository.js';
import type { OrganizationsRepository } from '../accounts/organizations.repository.js';
import { invalidInput, notFound } from '../errors.js';
import { OIDC_SCOPES } from '../oidc/scopes.js';
import { newClientSecret } from './client-secret.js';
import type { Client, ClientsRepository } from './clients.repository.js';

export const GRANT_TYPES = ['client_credentials', 'authorization_code', 'implicit', 'refresh_token'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

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

export class ClientsService {
  constructor(
    private readonly clients: ClientsRepository,
    private readonly apis: ApisRepository,
    private readonly organizations: OrganizationsRepository,
  ) {}

  /** Returns the client and, for confidential clients, its secret: shown once, stored only as a hash. */
  async create(input: CreateClientInput): Promise<{ client: Client; clientSecret: string | undefined }> {
    const clientId = input.clientId ?? `client-${randomToken(9)}`;
    // User ids are UUIDs; a client id must never look like one, since a service account's `sub` is its client id.
    if (!CLIENT_ID.test(clientId) || isUuid(clientId)) {
      throw invalidInput('client id must be 3-64 characters of letters, digits, ".", "_" or "-", and not a UUID');
    }
    if (!input.name.trim()) throw invalidInput('name is required');

    const grantTypes = [...new Set(input.grantTypes)];
    const unknown = grantTypes.filter((g) => !(GRANT_TYPES as readonly string[]).includes(g));
    if (grantTypes.length === 0 || unknown.length > 0) {
      throw invalidInput(`grant types must be some of ${GRANT_TYPES.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
    }
    const isPublic = input.public === true;
    if (isPublic && grantTypes.includes('client_credentials')) throw invalidInput('a public client cannot use client_credentials');
    if (grantTypes.length === 1 && grantTypes[0] === 'refresh_token') throw invalidInput('refresh_token needs another grant type');

    const redirectUris = input.redirectUris ?? [];
    const interactive = grantTypes.includes('authorization_code') || grantTypes.includes('implicit');
    if (interactive && redirectUris.length === 0) throw invalidInput('authorization_code and implicit need at least one redirect URI');
    for (const uri of [...redirectUris, ...(input.postLogoutRedirectUris ?? [])]) {
      if (!URL.canParse(uri) || uri.includes('#')) throw invalidInput(`redirect URI ${uri} must be an absolute URL without a fragment`);
    }

    const scopes = [...new Set(input.scopes)];
    await this.assertScopesExist(scopes);

    let organizationId: string | null = null;
    if (input.organization) {
      const org = await this.organizations.find(input.organization);
      if (!org) throw notFound(`organization ${input.organization}`);
      organizationId = org.id;
    }

    const responseTypes = [
      ...(grantTypes.includes('authorization_code') ? ['code'] : []),
      ...(grantTypes.includes('implicit') ? ['id_token token'] : []),
    ];
    const secret = isPublic ? undefined : newClientSecret();
    const client = await this.clients.create({
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
  async rotateSecret(clientId: string): Promise<{ clientId: string; clientSecret: string }> {
    const client = await this.clients.find(clientId);
    if (!client) throw notFound(`client ${clientId}`);
    if (client.secretHash === null) throw invalidInput(`client ${clientId} is public and has no secret`);
    const secret = newClientSecret();
    await this.clients.setSecretHash(clientId, secret.hash);
    return { clientId, clientSecret: secret.secret };
  }

  /** Deletes the client; its secret stops working on every replica at once (see client-cache.ts). */
  async delete(clientId: string): Promise<void> {
    if (!(await this.clients.delete(clientId))) throw notFound(`client ${clientId}`);
  }

  private async assertScopesExist(scopes: string[]): Promise<void> {
    const apiScopes = scopes.filter((s) => !OIDC_SCOPES.includes(s));
    const owners = await this.apis.findOwnersOfScopes(apiScopes);
    const known = new Set(owners.flatMap((a) => a.scopes));
    const missing = apiScopes.filter((s) => !known.has(s));
    if (missing.length > 0) throw invalidInput(`unknown scope(s): ${missing.join(', ')} (create the API first)`);
  }
}
