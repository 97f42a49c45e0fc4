import { hashKey } from '../src/secrets/keys.js';
import { createDb, type Db } from '../src/db/knex.js';
import { startSecretsWithAccount, type Account, type Harness } from './harness.js';

/**
 * The sweeper works off what has expired in statements of SWEEP_BATCH_SIZE rows (here 2), each
 * leaving the rows another transaction holds: a backlog larger than a batch goes in one run, live
 * rows stay, and a row a reader holds stalls nothing. Expiry is set in the database (the rows'
 * times moved into the past), so no test waits for a clock.
 */
let h: Harness;
let alice: Account;
let other: Db;
beforeAll(async () => {
  // RECEIPT_RETENTION=0: a receipt lives twice its secret's ttl; the timer is out of the way.
  ({ h, alice } = await startSecretsWithAccount({ SWEEP_BATCH_SIZE: '2', SWEEP_INTERVAL: '3600', RECEIPT_RETENTION: '0', DATABASE_TIMEOUT_MS: '2000' }));
  other = createDb(h.env['DATABASE_URL'] as string, 2);
});
afterAll(async () => {
  await other.destroy();
  await h.close();
});

type Shared = { secret_key: string; metadata_key: string };
const share = async (fields: Record<string, string> = {}): Promise<Shared> => {
  const res = await h.http
    .post('/api/v1/share')
    .set('Authorization', alice.auth)
    .send({ secret: 'to be swept', ttl: '3600', ...fields });
  expect(res.status).toBe(200);
  return res.body as Shared;
};
const hashes = (s: Shared) => ({ secret: hashKey(s.secret_key), metadata: hashKey(s.metadata_key) });
/** The secret's lifetime ended a minute ago (its receipt lives on). */
const expireSecret = async (s: Shared) => {
  await h
    .db('secrets')
    .where('secret_hash', hashes(s).secret)
    .update({ expires_at: h.db.raw(`now() - interval '1 minute'`) });
  await h
    .db('metadata')
    .where('metadata_hash', hashes(s).metadata)
    .update({ secret_expires_at: h.db.raw(`now() - interval '1 minute'`) });
};
/** The receipt's retention ended too. */
const expireReceipt = (s: Shared) =>
  h
    .db('metadata')
    .where('metadata_hash', hashes(s).metadata)
    .update({ expires_at: h.db.raw(`now() - interval '1 second'`) });
/** Resolves once `check` holds (the relay works beside the test); fails after 5 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('never happened');
}
const secretRow = (s: Shared) => h.db('secrets').where('secret_hash', hashes(s).secret).first();
const receiptRow = (s: Shared) => h.db('metadata').where('metadata_hash', hashes(s).metadata).first();

it('a backlog of expired secrets larger than a batch goes in one run; their receipts lose the sealed key; live secrets stay readable', async () => {
  const expired = await Promise.all(Array.from({ length: 5 }, () => share()));
  const live = await share({ secret: 'still here' });
  for (const s of expired) await expireSecret(s);

  const swept = await h.secrets.sweep();
  expect(swept).toMatchObject({ secrets: 5, sealedKeys: 5 });
  for (const s of expired) {
    expect(await secretRow(s)).toBeUndefined();
    expect(await receiptRow(s)).toMatchObject({ secret_key_sealed: null, state: 'new' });
  }
  expect((await receiptRow(live)).secret_key_sealed).not.toBeNull();
  expect((await h.http.post(`/api/v1/secret/${live.secret_key}`)).body.value).toBe('still here');
  expect(await h.secrets.sweep()).toEqual({ secrets: 0, metadata: 0, sealedKeys: 0 });
});

it('an expired secret whose creator asked to hear of it gets its `expired` e-mail written once, by the statement that deletes it', async () => {
  const told = await share({ notify: 'expired', notify_email: 'me@example.com' });
  const untold = await share({ notify: 'revealed', notify_email: 'me@example.com' });
  await expireSecret(told);
  await expireSecret(untold);
  await h.secrets.sweep();
  await h.secrets.sweep();
  const notes = await h.db('outbox').select('metadata_hash', 'notify_event').whereNotNull('notify_event');
  expect(notes).toEqual([{ metadata_hash: hashes(told).metadata, notify_event: 'expired' }]);
});

it('a secret another transaction holds does not stall the sweep: every other expired row goes, the held one at the next run', async () => {
  const held = await share();
  const free = await Promise.all(Array.from({ length: 3 }, () => share()));
  for (const s of [held, ...free]) await expireSecret(s);

  const trx = await other.transaction();
  try {
    await trx('secrets').where('secret_hash', hashes(held).secret).forUpdate().first();
    expect((await h.secrets.sweep()).secrets).toBe(3);
    for (const s of free) expect(await secretRow(s)).toBeUndefined();
    expect(await secretRow(held)).toBeDefined();
  } finally {
    await trx.rollback();
  }
  expect((await h.secrets.sweep()).secrets).toBe(1);
  expect(await secretRow(held)).toBeUndefined();
});

it('receipts past their retention go in batches, with the e-mail requests still hanging on them; the others stay', async () => {
  const old = await Promise.all(Array.from({ length: 3 }, () => share({ recipient: 'friend@example.com' })));
  const kept = await share();
  for (const s of old) {
    await expireSecret(s);
    await expireReceipt(s);
  }
  const swept = await h.secrets.sweep();
  expect(swept.metadata).toBe(3);
  for (const s of old) expect(await receiptRow(s)).toBeUndefined();
  expect(
    await h.db('outbox').whereIn(
      'metadata_hash',
      old.map((s) => hashes(s).metadata),
    ),
  ).toEqual([]);
  expect(await receiptRow(kept)).toBeDefined();
});

it('an e-mail request whose secret expired before delivery goes, and its receipt says the delivery failed', async () => {
  const shared = await share({ recipient: 'friend@example.com' });
  const row = () => h.db('outbox').where('metadata_hash', hashes(shared).metadata).first();
  // Once the relay has handed it to the queue it leaves the row alone (the mailer never reports here).
  await until(async () => (await row())?.queued_at != null);
  await h
    .db('outbox')
    .where('metadata_hash', hashes(shared).metadata)
    .update({ expires_at: h.db.raw(`now() - interval '1 second'`) });
  await h.secrets.sweep();
  expect(await h.db('outbox').where('metadata_hash', hashes(shared).metadata)).toEqual([]);
  expect(await receiptRow(shared)).toMatchObject({ delivery_status: 'failed', delivery_reason: 'the secret expired before the e-mail was delivered' });
});

it('secret requests go RECEIPT_RETENTION after their link closed, in batches; open ones stay', async () => {
  const create = async (label: string) => {
    const res = await h.http.post('/api/v1/requests').set('Authorization', alice.auth).send({ label, ttl: '3600' });
    expect(res.status).toBe(201);
    return res.body as { id: string };
  };
  const cancelled = await Promise.all(['a', 'b', 'c'].map(create));
  for (const r of cancelled) expect((await h.http.delete(`/api/v1/requests/${r.id}`).set('Authorization', alice.auth)).status).toBeLessThan(300);
  const open = await create('still open');
  await h.secrets.sweep();
  expect(
    await h.db('secret_requests').whereIn(
      'id',
      cancelled.map((r) => r.id),
    ),
  ).toEqual([]);
  expect(await h.db('secret_requests').where('id', open.id).first()).toMatchObject({ state: 'open' });
});
