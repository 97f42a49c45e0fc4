import { KeyRing } from '@hush/common';
import { AccountsRepository } from './accounts/accounts.repository.js';
import { ApiTokensRepository } from './accounts/api-tokens.repository.js';
import { PreferencesRepository } from './accounts/preferences.repository.js';
import { TokenCache } from './accounts/token-cache.js';
import type { Config } from './config.js';
import type { Db } from './db/knex.js';
import type { SecretsDeps } from './secrets/deps.js';
import { SecretCrypto } from './secrets/secret-crypto.js';
import { RecipientCodesRepository } from './secrets/recipient-codes.repository.js';
import { RequestsRepository } from './secrets/requests.repository.js';
import { SecretsRepository } from './secrets/secrets.repository.js';
import { ZK_DEFAULTS, ZkFilesRepository, type ZkDeps } from './zk/index.js';
import { SweepRepository } from './secrets/sweep.repository.js';

/**
 * The repositories and settings, wired once; shared by the HTTP app and the admin CLI. It is the
 * deps object of the account use-cases (accounts/accounts.ts): each picks what it needs from it.
 */
export function createContext(config: Config, db: Db) {
  const masterKeys = KeyRing.of(config.MASTER_KEY, config.MASTER_KEYS_PREVIOUS, 'MASTER_KEY');
  return {
    config,
    db,
    accounts: new AccountsRepository(db),
    tokens: new ApiTokensRepository(db),
    /** The web app's per-account settings. */
    preferences: new PreferencesRepository(db),
    tokenCache: new TokenCache(config.API_TOKEN_CACHE_SECONDS),
    defaultPlan: config.DEFAULT_PLAN,
    secrets: new SecretsRepository(db, { receiptRetention: config.RECEIPT_RETENTION }),
    requests: new RequestsRepository(db),
    codes: new RecipientCodesRepository(db),
    /** The sweeper's statements (secrets/sweeper.ts). */
    sweeps: new SweepRepository(db),
    /** MASTER_KEY and the keys it replaced (MASTER_KEYS_PREVIOUS): seal under the first, open under any. */
    masterKeys,
    crypto: new SecretCrypto(masterKeys),
    /** Zero-knowledge files' encrypted records. */
    files: new ZkFilesRepository(db),
  };
}

export type Context = ReturnType<typeof createContext>;
export type { Infrastructure } from '@hush/common';

/** The deps of the secret use-cases (secrets/deps.ts): the context's repositories and settings, plus what the app runs. */
export function createSecretsDeps(context: Context, extras: Pick<SecretsDeps, 'passphrases' | 'outboxWritten' | 'events'>): SecretsDeps {
  const { config } = context;
  return {
    secrets: context.secrets,
    requests: context.requests,
    codes: context.codes,
    accounts: context.accounts,
    crypto: context.crypto,
    settings: {
      ttl: { min: config.TTL_MIN, max: config.TTL_MAX, fallback: config.TTL_DEFAULT },
      defaultPlan: config.DEFAULT_PLAN,
      maxPassphraseAttempts: config.PASSPHRASE_MAX_ATTEMPTS,
      anonymousMaxSecretLength: config.anonymousShares.maxSecretLength,
      baseUrl: config.BASE_URL,
    },
    ...extras,
  };
}

/** The deps of the zero-knowledge use-cases (zk/): the secrets' deps, the files and their bounds. */
export function createZkDeps(context: Context, secrets: SecretsDeps): ZkDeps {
  const { config } = context;
  return { ...secrets, files: context.files, zk: { ...ZK_DEFAULTS, fileMaxBytes: config.FILE_MAX_BYTES, mailerOpensLinkKeys: config.DELIVERY_MODE === 'queue' } };
}
