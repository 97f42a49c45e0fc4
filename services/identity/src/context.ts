import { availableParallelism } from 'node:os';
import type { Redis } from 'ioredis';
import { BcryptPool, KeyRing, type Logger } from '@hush/common';
import { REALM_PATH, type Config } from './config.js';
import { RolesRepository } from './roles/index.js';
import { SessionsRepository } from './sessions/index.js';
import { EventsRepository } from './events/index.js';
import { ConsentsRepository, CredentialsRepository } from './login/index.js';
import { ActionTokensRepository, MailOutboxRepository } from './account-links/index.js';
import { Passwords, UsersRepository } from './users/index.js';
import { OrganizationsRepository } from './organizations/index.js';
import { ClientSecretSeal, ClientsRepository } from './clients/index.js';
import { ApisRepository } from './apis/index.js';
import { KeysRepository, SigningKeys } from './keys/index.js';
import { HandoversRepository, SecretsApi } from './handover/index.js';
import { Revocations } from './revocations/index.js';
import type { Db } from './db/index.js';

/**
 * Every repository, bound to `db`: the pool, or one transaction (`inTransaction` below), in which
 * case each of them reads and writes inside it.
 */
export function createRepositories(db: Db, masterKeys: KeyRing) {
  const keysRepository = new KeysRepository(db);
  return {
    organizations: new OrganizationsRepository(db),
    users: new UsersRepository(db),
    credentials: new CredentialsRepository(db),
    consents: new ConsentsRepository(db),
    roles: new RolesRepository(db),
    sessions: new SessionsRepository(db),
    eventsRepository: new EventsRepository(db),
    actionTokens: new ActionTokensRepository(db),
    mailOutbox: new MailOutboxRepository(db),
    apis: new ApisRepository(db),
    clients: new ClientsRepository(db),
    handovers: new HandoversRepository(db),
    keysRepository,
    signingKeys: new SigningKeys(keysRepository, masterKeys),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

/**
 * The repositories and settings, wired once; shared by the HTTP app and the admin CLI. It is the
 * deps object of the use-cases (users.ts, clients.ts, apis.ts, rotation.ts): each picks what it
 * needs from it.
 */
export function createContext(config: Config, db: Db, redis?: Redis, logger?: Logger) {
  const masterKeys = KeyRing.of(config.MASTER_KEY, config.MASTER_KEYS_PREVIOUS, 'MASTER_KEY');
  return {
    config,
    db,
    /** MASTER_KEY and the keys it replaced (MASTER_KEYS_PREVIOUS): seal and sign under the first, open and verify under any. */
    masterKeys,
    ...createRepositories(db, masterKeys),
    /** Runs `work` with every repository bound to one transaction: committed when it resolves, rolled back when it throws. */
    inTransaction: <T>(work: (repositories: Repositories) => Promise<T>): Promise<T> => db.transaction((trx) => work(createRepositories(trx, masterKeys))),
    secretSeal: new ClientSecretSeal(masterKeys, config.CLIENT_SECRET_READBACK),
    secretsApi: handoverApi(config),
    handoverTtl: config.HANDOVER_TTL,
    passwords: new Passwords(new BcryptPool({ size: config.PASSWORD_WORKERS || availableParallelism(), queue: config.PASSWORD_QUEUE }), config.PASSWORD_HASH_COST),
    keyReloadSeconds: config.KEY_RELOAD_INTERVAL,
    // The CLI has no Redis connection of its own: one is opened if a command revokes something.
    // With the service's logger, announcements Redis misses are retried in the background.
    revocations: new Revocations(config.REVOCATIONS_CHANNEL, redis ?? { url: config.REDIS_URL, timeoutMs: config.REDIS_TIMEOUT_MS }, logger),
  };
}

/** The secrets service as identity's handover client reaches it (handover/), when configured. */
function handoverApi(config: Config): SecretsApi | undefined {
  if (config.SECRETS_URL === undefined || config.HANDOVER_CLIENT_SECRET === undefined) return undefined;
  return new SecretsApi({
    secretsUrl: config.SECRETS_URL,
    // identity's own token endpoint, reached from inside; the token still carries the public issuer.
    tokenUrl: `${config.internalUrl}${REALM_PATH}/protocol/openid-connect/token`,
    clientId: config.HANDOVER_CLIENT_ID,
    clientSecret: config.HANDOVER_CLIENT_SECRET,
    linkKeySealingKey: config.LINK_KEY_SEALING_KEY,
  });
}

export type Context = ReturnType<typeof createContext>;
export type { Infrastructure } from '@hush/common';
