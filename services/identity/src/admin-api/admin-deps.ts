import type { Context } from '../context.js';
import type { EventRecorder } from '../events/index.js';
import type { AccountActionsDeps } from '../account-links/index.js';

/**
 * What the admin API's handlers reach: the shared context (context.ts), as the CLI, and the app's
 * event recorder. A change's handler gets them bound to its transaction (admin-transaction.ts).
 */
export type AdminDeps = Pick<
  Context,
  | 'clients'
  | 'apis'
  | 'organizations'
  | 'credentials'
  | 'revocations'
  | 'secretSeal'
  | 'users'
  | 'roles'
  | 'sessions'
  | 'passwords'
  | 'signingKeys'
  | 'keysRepository'
  | 'keyReloadSeconds'
  | 'eventsRepository'
  | 'handovers'
  | 'secretsApi'
  | 'handoverTtl'
> & {
  events: Pick<EventRecorder, 'user' | 'settings' | 'useSettings'>;
  /** execute-actions-email: the account links, and their default lifespan (ACTIONS_LINK_LIFESPAN). */
  accountActions: AccountActionsDeps & { defaultLifespanSeconds: number };
};

/** Runs a change with deps whose repositories all work in one transaction, committed when `work` resolves (admin-transaction.ts). */
export type AdminTransaction = <T>(work: (deps: AdminDeps) => Promise<T>) => Promise<T>;
