import { randomBytes } from 'node:crypto';
import { cliDriver, createTestDatabase, freePort, itRefusesTheDatabaseOfAnotherMasterKey, startMain, testRedisUrl, uniquePrefix, type TestDatabase } from '@hush/testing';
import { runCli } from '../src/cli/cli.js';
import { createDb } from '../src/db/knex.js';
import { KeyMismatchError, keyFingerprint, verifyKeyFingerprints } from '../src/key-fingerprint/key-fingerprint.js';
import { KeyFingerprintRepository } from '../src/key-fingerprint/key-fingerprint.repository.js';

// Through `node dist/src/main.js`, as compose and Kubernetes start the service (build first: tsc -b).
const databases: TestDatabase[] = [];
afterAll(() => Promise.all(databases.map((d) => d.drop())));

async function newDatabase(label: string): Promise<string> {
  const database = await createTestDatabase(label);
  databases.push(database);
  return database.url;
}

interface Ports {
  port: number;
  managementPort: number;
}

async function freePorts(): Promise<Ports> {
  return { port: await freePort(), managementPort: await freePort() };
}

function env(masterKey: string, databaseUrl: string, { port, managementPort }: Ports): NodeJS.ProcessEnv {
  return {
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
  };
}

itRefusesTheDatabaseOfAnotherMasterKey('secrets', ({ databaseUrl, ...ports }) => ({
  env: (masterKey) => env(masterKey, databaseUrl, ports),
  migrate: async (masterKey) => void (await cliDriver(runCli, env(masterKey, databaseUrl, ports)).cli('migrate')),
}));

it('keeps a one-way fingerprint of the first MASTER_KEY, never the key; of replicas starting at once with different keys, one wins', async () => {
  const databaseUrl = await newDatabase('secrets_fingerprint_row');
  const keys = Array.from({ length: 4 }, () => randomBytes(32));
  await cliDriver(runCli, env(keys[0]?.toString('hex') ?? '', databaseUrl, await freePorts())).cli('migrate');
  const db = createDb(databaseUrl, 4);
  try {
    const outcomes = await Promise.allSettled(keys.map((key) => verifyKeyFingerprints(new KeyFingerprintRepository(db), { MASTER_KEY: key }, databaseUrl)));
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
  const unmigrated = await newDatabase('secrets_unmigrated');
  const refused = startMain('secrets', env(randomBytes(32).toString('hex'), unmigrated, await freePorts()));
  expect(await refused.exited).toBe(1);
  expect(refused.stderr()).toMatch(/^secrets: the database has no key_fingerprints table: run the migrations first/);
});
