import type { Context } from '../context.js';
import type { AdminDeps, AdminTransaction } from './admin-deps.js';
import { type ClientCache, invalidatingLocally } from '../clients/index.js';

/**
 * A change made through the admin API and its admin event are one transaction (admin-route.ts runs
 * every call but a GET, and its record, through it). Rules:
 * - every repository the handler reaches is bound to the transaction (context.ts), so what it
 *   writes is seen by no one before the commit, is all undone if anything fails (the event's write
 *   included), and the handler takes no second connection from the pool while it holds one;
 * - what only makes sense once committed waits for the commit and is dropped on a rollback:
 *   dropping the client from this process's cache (other replicas hear of the commit through
 *   NOTIFY), waking the mail relay, the user events the handler records, the events settings;
 * - what is not in the database happens when the handler does it and stays after a rollback:
 *   revocations announced through Redis (a change rolled back leaves its tokens revoked, the safe
 *   side), a credential shared through the secrets service for a handover (its link then leads to
 *   a credential that was never put into effect).
 */
export function adminTransactions(base: AdminDeps, inTransaction: Context['inTransaction'], cache: Pick<ClientCache, 'forget'> | undefined): AdminTransaction {
  return async (work) => {
    const afterCommit: (() => void)[] = [];
    const later = (then: () => void) => {
      afterCommit.push(then);
    };
    const result = await inTransaction((repositories) =>
      work({
        ...base,
        ...repositories,
        clients: invalidatingLocally(repositories.clients, cache && { forget: (clientId) => later(() => cache.forget(clientId)) }),
        events: {
          settings: () => base.events.settings(),
          useSettings: (config) => later(() => base.events.useSettings(config)),
          user: (event) => later(() => base.events.user(event)),
        },
        accountActions: {
          ...base.accountActions,
          tokens: repositories.actionTokens,
          users: repositories.users,
          mailWritten: () => later(() => base.accountActions.mailWritten()),
        },
      }),
    );
    for (const then of afterCommit) then();
    return result;
  };
}
