import type { AccountsRepository } from '../accounts/accounts.repository.js';
import type { PlanName } from '../accounts/plans.js';
import type { Passphrases } from '../passphrase/passphrases.js';
import type { SecretCrypto } from './secret-crypto.js';
import type { RecipientCodesRepository } from './recipient-codes.repository.js';
import type { RequestsRepository } from './requests.repository.js';
import type { SecretsRepository } from './secrets.repository.js';

/** What the secret use-cases may reach; each takes the narrowest Pick of it. Wired once in app.ts (createSecretsApp). */
export interface SecretsDeps {
  secrets: SecretsRepository;
  requests: RequestsRepository;
  codes: RecipientCodesRepository;
  accounts: AccountsRepository;
  crypto: SecretCrypto;
  passphrases: Passphrases;
  settings: {
    ttl: { min: number; max: number; fallback: number };
    defaultPlan: PlanName;
    maxPassphraseAttempts: number;
    /** Longest anonymous secret in characters (ANONYMOUS_MAX_SECRET_LENGTH). */
    anonymousMaxSecretLength: number;
    /** Public origin; the recipient's link is `${baseUrl}/secret/<secret_key>`. */
    baseUrl: string;
  };
  /** Called after a share wrote an e-mail request to the outbox, so the relay runs now. */
  outboxWritten(): void;
  /** Lifecycle events, for metrics. */
  events: SecretEvents;
}

export interface SecretEvents {
  created(kind: 'share' | 'generate'): void;
  read(): void;
  burned(): void;
}
