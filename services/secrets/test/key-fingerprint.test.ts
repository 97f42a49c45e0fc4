import { randomBytes } from 'node:crypto';
import { cliDriver, createTestDatabase, freePort, itRefusesTheDatabaseOfAnotherMasterKey, startMain, testRedisUrl, uniquePrefix, type TestDatabase } from '@hush/testing';
import { runCli } from '../src/cli/cli.js';
import { createDb } from '../src/db/knex.js';
import { KeyMismatchError, keyFingerprint, verifyKeyFingerprints } from '../src/key-fingerprint/key-fingerprint.js';
import { KeyFingerprintRepository } from '../src/key-fingerprint/key-fingerprint.repository.js';

// Through `node dist/src/main.js`, as compose and Kubernetes start the service (build first: tsc -b).
const databases: TestDatabase[] = [];
let env: (masterKey: string, databaseUrl?: string) => NodeJS.ProcessEnv;
let managementUrl: string;

beforeAll(async () => {
  const database = await createTestDatabase('secrets_master_key');
  databases.push(database);
  const [port, managementPort] = [await freePort(), await freePort()];
  managementUrl = `http://127.0.0.1:${managementPort}`;
  env = (masterKey, databaseUrl = database.url) => ({
    PATH: process.env.PATH,
    PORT: String(port),
    MANAGEMENT_PORT: String(managementPort),
    BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl,
    REDIS_URL: testRedisUrl,
    REDIS_PREFIX: uniquePrefix('secrets-master-key'),
    QUEUE_PREFIX: uniquePrefix('secrets-master-key-q').slice(0, -1),
    REVOCATIONS_CHANNEL: uniquePrefix('revocations-test').slice(0, -1),
    MASTER_KEY: masterKey,
    MAIL_SEALING_KEY: randomBytes(32).toString('hex'),
    PASSPHRASE_HASH_COST: '4',
    PASSPHRASE_WORKERS: '1',
    LOG_LEVEL: 'warn',
  });
});
afterAll(() => Promise.all(databases.map((d) => d.drop())));

itRefusesTheDatabaseOfAnotherMasterKey(() => ({
  service: 'secrets',
  managementUrl,
  env,
  migrate: async (masterKey) => void (await cliDriver(runCli, env(masterKey)).cli('migrate')),
}));

it('keeps a one-way fingerprint of the first MASTER_KEY, never the key; of replicas starting at once with different keys, one wins', async () => {
  const database = await createTestDatabase('secrets_fingerprint_row');
  databases.push(database);
  const keys = Array.from({ length: 4 }, () => randomBytes(32));
  await cliDriver(runCli, env(keys[0]?.toString('hex') ?? '', database.url)).cli('migrate');
  const db = createDb(database.url, 4);
  try {
    const outcomes = await Promise.allSettled(keys.map((key) => verifyKeyFingerprints(new KeyFingerprintRepository(db), { MASTER_KEY: key }, database.url)));
    const started = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [keys[i] as Buffer] : []));
    expect(started).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(KeyMismatchError);
    const rows = await db<{ key_name: string; fingerprint: string }>('key_fingerprints').select('key_name', 'fingerprint');
    expect(rows).toEqual([{ key_name: 'MASTER_KEY', fingerprint: keyFingerprint(started[0] as Buffer) }]);
    for (const key of keys) expect(key.toString('hex')).not.toContain(rows[0]?.fingerprint ?? '');
  } finally {
    await db.destroy();
  }
});

it('refuses to start on a database that was never migrated, saying so', async () => {
  const unmigrated = await createTestDatabase('secrets_unmigrated');
  databases.push(unmigrated);
  const refused = startMain('secrets', env(randomBytes(32).toString('hex'), unmigrated.url));
  expect(await refused.exited).toBe(1);
  expect(refused.stderr()).toMatch(/^secrets: the database has no key_fingerprints table: run the migrations first/);
});
