import { AccountsRepository } from './accounts/accounts.repository.js';
import { AccountsService } from './accounts/accounts.js';
import { ApiTokensRepository } from './accounts/api-tokens.repository.js';
import type { Config } from './config.js';
import type { Db } from './db/knex.js';
import { SecretCrypto } from './secrets/secret-crypto.js';
import { SecretsRepository } from './secrets/secrets.repository.js';

/** The repositories and use-cases, wired once; shared by the HTTP app and the admin CLI. */
export function createContext(config: Config, db: Db) {
  const accounts = new AccountsRepository(db);
  const tokens = new ApiTokensRepository(db);
  return {
    config,
    db,
    accounts,
    tokens,
    secrets: new SecretsRepository(db),
    crypto: new SecretCrypto(config.MASTER_KEY),
    accountsService: new AccountsService(accounts, tokens, config.DEFAULT_PLAN, config.API_TOKEN_CACHE_SECONDS),
  };
}

export type Context = ReturnType<typeof createContext>;
export type { Infrastructure } from '@hush/common';
