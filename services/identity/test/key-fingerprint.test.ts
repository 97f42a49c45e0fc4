import { cliDriver, itRefusesTheDatabaseOfAnotherMasterKey, testRedisUrl, uniquePrefix } from '@hush/testing';
import { runCli } from '../src/cli/cli.js';

// Through `node dist/src/main.js`, as compose and Kubernetes start identity (build first: tsc -b).
// Identity tells its database's key by its signing keys, which `migrate` makes, sealed under
// MASTER_KEY: another MASTER_KEY cannot open them at start (keys/keys.ts).
itRefusesTheDatabaseOfAnotherMasterKey('identity', ({ databaseUrl, port, managementPort }) => {
  const env = (masterKey: string): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    PORT: String(port),
    MANAGEMENT_PORT: String(managementPort),
    AUTH_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    REDIS_URL: testRedisUrl,
    REDIS_PREFIX: uniquePrefix('identity-master-key'),
    REVOCATIONS_CHANNEL: uniquePrefix('revocations-test').slice(0, -1),
    MASTER_KEY: masterKey,
    PASSWORD_HASH_COST: '4',
    // No e-mail is sent here; queue mode would need the mailer's sealing key.
    DELIVERY_MODE: 'inline',
    LOG_LEVEL: 'warn',
  });
  return { env, migrate: async (masterKey) => void (await cliDriver(runCli, env(masterKey)).cli('migrate')) };
});
