import { InvalidInputError } from '../errors.js';
import { ADMIN_API_SCOPE, REALM_MANAGEMENT, resolveRoles, type RolesDeps } from '../roles/index.js';
import { serviceAccountUser, type UsersDeps } from '../users/index.js';
import { type ClientsDeps, createClient, hashClientSecret } from '../clients/index.js';

/** The client id of the first administrator, made by `bootstrap`. */
export const ADMIN_CLIENT_ID = 'hush-admin';

/**
 * The first administrator: a confidential client with the client-credentials grant and the admin
 * API's scope, whose service-account user holds `realm-admin`. `secret` (at least 32 characters,
 * e.g. from ADMIN_CLIENT_SECRET) becomes its secret; without it a new client gets a generated one,
 * returned this once. An existing client keeps its secret unless another is given, and gets
 * `realm-admin` back if it lost it.
 */
export async function ensureAdminClient(
  deps: Pick<ClientsDeps, 'clients' | 'apis' | 'organizations' | 'secretSeal'> & Pick<UsersDeps, 'users'> & RolesDeps,
  secret: string | undefined,
): Promise<{ client_id: string; created: boolean; client_secret?: string }> {
  if (secret !== undefined && secret.length < 32) throw new InvalidInputError('ADMIN_CLIENT_SECRET must be at least 32 characters (e.g. openssl rand -hex 32)');
  let client = await deps.clients.find(ADMIN_CLIENT_ID);
  let generated: string | undefined;
  const created = client === undefined;
  if (!client) {
    const made = await createClient(deps, {
      clientId: ADMIN_CLIENT_ID,
      name: 'Hush administrator',
      description: 'Created by bootstrap: realm-admin through its service account',
      grantTypes: ['client_credentials'],
      scopes: [ADMIN_API_SCOPE],
      secret,
    });
    client = made.client;
    generated = secret === undefined ? made.clientSecret : undefined;
  } else if (secret !== undefined && client.secretHash !== hashClientSecret(secret)) {
    await deps.clients.setSecret(ADMIN_CLIENT_ID, hashClientSecret(secret), deps.secretSeal.seal(client.id, secret));
  }
  const account = await serviceAccountUser(deps, client);
  await deps.roles.addMappings(
    account.id,
    (await resolveRoles(deps, REALM_MANAGEMENT, [{ name: 'realm-admin' }])).map((r) => r.id),
  );
  return { client_id: ADMIN_CLIENT_ID, created, ...(generated ? { client_secret: generated } : {}) };
}
