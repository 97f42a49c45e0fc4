import { startSecrets, type Harness } from '../../../services/secrets/test/harness.js';

/**
 * The secrets service as Onetime Secret's clients meet it: real HTTP on a free port, a fresh
 * database, API_DIALECT=onetimesecret and ANONYMOUS_SHARES=true (the bash suite creates most of
 * its secrets anonymously). The anonymous per-IP limit is raised: every test comes from 127.0.0.1.
 */
export function startOtsCompatible(): Promise<Harness> {
  return startSecrets({ API_DIALECT: 'onetimesecret', ANONYMOUS_SHARES: 'true', ANONYMOUS_RATE_LIMIT_MAX: '1000' });
}

export type { Harness };
