import { z } from 'zod';
import { loadConfig } from './config.js';
import { httpServiceKeys, processKeys, redisKeys } from './config-keys.js';

const MASTER_KEY = 'ab'.repeat(32);

describe('shared configuration keys', () => {
  it('give each HTTP service its own port, database and Redis prefix, and the same defaults for the rest', () => {
    const schema = z.object({ ...httpServiceKeys({ port: 4000, managementPort: 9100, database: 'hush_example', redisPrefix: 'hush:example:' }), OWN: z.string().default('own') });
    expect(loadConfig(schema, { MASTER_KEY })).toMatchObject({
      PORT: 4000,
      MANAGEMENT_PORT: 9100,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/hush_example',
      REDIS_PREFIX: 'hush:example:',
      DATABASE_POOL_MAX: 20,
      DATABASE_TIMEOUT_MS: 5000,
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_TIMEOUT_MS: 1000,
      REVOCATIONS_CHANNEL: 'hush:revocations',
      LOG_LEVEL: 'info',
      IDLE_COMPACTION: true,
      TRUST_PROXY: false,
      OWN: 'own',
    });
  });

  it("are validated as the service's own keys are: every bad one named", () => {
    const schema = z.object({ ...httpServiceKeys({ port: 4000, managementPort: 9100, database: 'd', redisPrefix: 'p:' }) });
    expect(() => loadConfig(schema, { REDIS_TIMEOUT_MS: '5' })).toThrow(/MASTER_KEY[\s\S]*REDIS_TIMEOUT_MS|REDIS_TIMEOUT_MS[\s\S]*MASTER_KEY/);
  });

  it('compose into a smaller service (no database) just as well', () => {
    expect(loadConfig(z.object({ ...redisKeys(), ...processKeys() }), { IDLE_COMPACTION: 'no' })).toEqual({
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_TIMEOUT_MS: 1000,
      LOG_LEVEL: 'info',
      IDLE_COMPACTION: false,
    });
  });
});
