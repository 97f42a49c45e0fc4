import { type ClientsDeps, createClient, hashClientSecret } from '../clients/index.js';

/**
 * Identity's own client of the secrets service, through which it hands credentials over
 * (client credentials, both secrets scopes). Registered by `bootstrap` only when the service is
 * given its secret (HANDOVER_CLIENT_SECRET): identity must present that same value. An existing
 * client gets the configured secret if it has another; its secret is never sealed for read-back.
 */
export async function ensureHandoverClient(
  deps: Pick<ClientsDeps, 'clients' | 'apis' | 'organizations'>,
  config: { HANDOVER_CLIENT_ID: string; HANDOVER_CLIENT_SECRET?: string | undefined },
  scopes: string[],
): Promise<{ client_id: string; created: boolean } | undefined> {
  const secret = config.HANDOVER_CLIENT_SECRET;
  if (secret === undefined) return undefined;
  const existing = await deps.clients.find(config.HANDOVER_CLIENT_ID);
  if (existing) {
    if (existing.secretHash !== hashClientSecret(secret)) await deps.clients.setSecret(existing.clientId, hashClientSecret(secret), null);
    return { client_id: existing.clientId, created: false };
  }
  await createClient(deps, {
    clientId: config.HANDOVER_CLIENT_ID,
    name: 'Hush credential handover',
    description: 'Created by bootstrap: identity shares new credentials through the secrets API with it',
    grantTypes: ['client_credentials'],
    scopes,
    secret,
  });
  return { client_id: config.HANDOVER_CLIENT_ID, created: true };
}
