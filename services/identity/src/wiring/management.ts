import { databaseReadiness, managementEndpoints } from '@hush/common';
import { SIGNING_ALGS } from '../keys/index.js';
import type { Deps } from './deps.js';

/** Health and metrics, served on the management port only (the public port answers them 404). */
export function management(deps: Pick<Deps, 'db' | 'redis' | 'metrics' | 'protocol'>) {
  return managementEndpoints({
    registry: deps.metrics.http.registry,
    health: {
      checks: {
        database: databaseReadiness(deps.db),
        // Tokens can only be signed with an active key of their algorithm, loaded by start() or the last reload.
        keys: async () => {
          const active = deps.protocol
            .fingerprint()
            .split(',')
            .filter((key) => key.endsWith(':active'));
          if (active.length < SIGNING_ALGS.length) throw new Error('no active signing key of every algorithm loaded');
        },
      },
      // Requests carry on without Redis (test/faults redis-outage): reported, never unready.
      reported: { redis: () => deps.redis.ping() },
    },
  });
}
