import type { SessionsRepository } from './sessions.repository.js';
import type { Revocations } from '../revocations/index.js';

export interface SessionsDeps {
  sessions: SessionsRepository;
  revocations: Revocations;
}

/**
 * Ends everything an account holds at once: its sign-in sessions, grants and refresh tokens are
 * removed (the next refresh is `invalid_grant`), and each grant is announced revoked first, so
 * resource servers refuse the access tokens already issued under it (ADR 10). If Redis cannot take
 * the announcement, nothing is removed and the caller's operation fails with it.
 */
export async function endAccountSessions(deps: SessionsDeps, accountId: string): Promise<number> {
  const grants = await deps.sessions.grantIds(accountId);
  for (const grantId of grants) await deps.revocations.revokeGrant(grantId);
  await deps.sessions.deleteForAccount(accountId, grants);
  return grants.length;
}
