import type { JWK } from 'jose';
import type { Logger, RateLimit } from '@hush/common';
import type { Config } from '../config.js';
import type { EnvelopeKeys } from './token-envelope.js';
import type { AdminRolesOf } from './access-token-claims.js';
import type { UsersRepository } from '../users/index.js';
import type { ClientAuthLimits, ClientLookup, ClientsRepository } from '../clients/index.js';
import type { ApiCatalog } from './api-catalog.js';
import type { Revocations } from '../revocations/index.js';
import type { Db } from '../db/index.js';
import type { ConsentMemory } from './consent-grant.js';

/** What the provider is built from (wiring/deps.ts makes it; protocol.ts adds the keys of each build). */
export interface ProviderDeps {
  config: Config;
  db: Db;
  clients: ClientLookup;
  /** Web origins across all clients: for CORS preflights and the session iframe's framing. */
  webOrigins: Pick<ClientsRepository, 'isWebOrigin' | 'allWebOrigins'>;
  users: UsersRepository;
  apis: ApiCatalog;
  /** Failed client authentications (clients/client-auth-failures.ts). */
  limiter: ClientAuthLimits;
  /** Sign-ins started per IP (SIGN_IN_MAX_PER_IP per SIGN_IN_WINDOW; keycloak/sign-in-starts.ts). */
  signInStarts: RateLimit;
  jwks: JWK[];
  /** Signs and opens the JWT envelopes of stored tokens (token-envelope.ts), for the same key set. */
  envelopeKeys: EnvelopeKeys;
  cookieKeys: string[];
  logger: Logger;
  revocations: Revocations;
  /** The realm-management roles admin API tokens carry (access-token-claims.ts). */
  adminRoles: AdminRolesOf;
  /** What people allowed the clients that require consent (login/consents.repository.ts). */
  consents: ConsentMemory;
}
