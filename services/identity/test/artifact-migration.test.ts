import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@hush/testing';
import { staticMigrations } from '@hush/common';
import * as initial from '../migrations/20261122000000_initial.js';
import * as clientsNotify from '../migrations/20261122010000_clients_notify.js';
import { createDb, migrateLatest, type Db } from '../src/db/knex.js';
import { createAdapterClass } from '../src/oidc/adapter.repository.js';
import { artifactKey } from '../src/oidc/artifact-key.js';

let database: TestDatabase;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase('identity_migration');
  db = createDb(database.url, 2);
  // The schema as it was before artifact ids were hashed.
  await db.migrate.latest({ migrationSource: staticMigrations({ '20261122000000_initial': initial, '20261122010000_clients_notify': clientsNotify }) });
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

const id = () => randomBytes(32).toString('base64url');

describe('the migration that hashes stored artifact ids', () => {
  it('leaves no id in the table, and every artifact is still found by its id', async () => {
    const refreshToken = id();
    const sessionCookie = id();
    const interaction = id();
    const grantId = id();
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const rows = [
      { model: 'RefreshToken', id: refreshToken, grant_id: grantId, payload: { jti: refreshToken, kind: 'RefreshToken', grantId, exp, scope: 'read' } },
      { model: 'Session', id: sessionCookie, uid: 'session-uid', payload: { jti: sessionCookie, kind: 'Session', uid: 'session-uid', accountId: 'a', exp } },
      { model: 'Interaction', id: interaction, payload: { jti: interaction, kind: 'Interaction', exp, session: { accountId: 'a', uid: 'session-uid', cookie: sessionCookie } } },
      { model: 'Grant', id: grantId, payload: { jti: grantId, kind: 'Grant', exp, accountId: 'a', clientId: 'c' } },
    ];
    await db('oidc_models').insert(rows.map((r) => ({ ...r, expires_at: new Date(exp * 1000) })));

    // Later migrations run too; this one runs first.
    expect((await migrateLatest(db))[0]).toBe('20261123000000_hash_artifact_ids');

    const dump = (await db.raw(`SELECT t::text AS row FROM oidc_models t`)).rows.map((r: { row: string }) => r.row).join('\n');
    for (const secret of [refreshToken, sessionCookie, interaction]) expect(dump).not.toContain(secret);
    const ids = (await db('oidc_models').select('model', 'id')).map((r: { model: string; id: string }) => `${r.model}:${r.id}`).sort();
    expect(ids).toEqual(rows.map((r) => `${r.model}:${artifactKey(r.id)}`).sort());

    const Adapter = createAdapterClass(db, () => Promise.resolve(undefined), { grantRevoked: () => Promise.resolve() });
    expect(await new Adapter('RefreshToken').find(refreshToken)).toMatchObject({ jti: refreshToken, grantId, scope: 'read' });
    expect(await new Adapter('Session').find(sessionCookie)).toMatchObject({ jti: sessionCookie, uid: 'session-uid' });
    expect(await new Adapter('Session').findByUid('session-uid')).toMatchObject({ accountId: 'a' });
    expect(await new Adapter('Interaction').find(interaction)).toMatchObject({ jti: interaction, session: { accountId: 'a', uid: 'session-uid' } });
    expect(await new Adapter('Grant').find(grantId)).toMatchObject({ jti: grantId, clientId: 'c' });
    await new Adapter('RefreshToken').revokeByGrantId(grantId);
    expect(await new Adapter('RefreshToken').find(refreshToken)).toBeUndefined();
  });
});
