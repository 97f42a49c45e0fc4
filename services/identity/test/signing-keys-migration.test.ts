import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@hush/testing';
import { isUniqueViolation, KeyRing, staticMigrations } from '@hush/common';
import * as initial from '../migrations/20261122000000_initial.js';
import * as clientsNotify from '../migrations/20261122010000_clients_notify.js';
import * as hashArtifactIds from '../migrations/20261123000000_hash_artifact_ids.js';
import { createDb, migrateLatest, type Db } from '../src/db/knex.js';
import { KeysRepository } from '../src/keys/keys.repository.js';
import { SigningKeys } from '../src/keys/keys.js';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase('identity_keys_migration');
  db = createDb(database.url, 2);
  // The schema as it was when only ES256 keys existed (one active key in all).
  await db.migrate.latest({
    migrationSource: staticMigrations({ '20261122000000_initial': initial, '20261122010000_clients_notify': clientsNotify, '20261123000000_hash_artifact_ids': hashArtifactIds }),
  });
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

describe('upgrading a database from before RS256', () => {
  it('keeps the ES256 key, adds an active RS256 key, and still allows one active key per algorithm', async () => {
    const keys = new SigningKeys(new KeysRepository(db), KeyRing.of(randomBytes(32)));
    const es256 = await keys.add('active', 'ES256');

    expect(await migrateLatest(db)).toContain('20261124000000_rs256_keys_client_token_settings');
    await keys.ensureActive();
    const active = (await keys.list()).filter((k) => k.status === 'active');
    expect(active.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    expect(active.find((k) => k.alg === 'ES256')?.kid).toBe(es256);

    const second = await keys.add('active', 'RS256').catch((err: unknown) => err);
    expect(isUniqueViolation(second)).toBe(true);
    // Existing clients get the new settings unset: the realm's algorithm, PKCE optional unless public.
    const columns = await db('clients').columnInfo();
    expect(Object.keys(columns)).toEqual(expect.arrayContaining(['signing_alg', 'pkce_method']));
  });
});
