import { hashKey } from '../src/secrets/keys.js';
import { eventually } from '@hush/testing';
import { startSecretsWithAccount, type Account, type Harness } from './harness.js';

// Queue mode with no mailer consuming: the e-mail is handed to BullMQ and no outcome ever comes.
let h: Harness;
let alice: Account;
beforeAll(async () => ({ h, alice } = await startSecretsWithAccount({ TTL_MIN: '1', SWEEP_INTERVAL: '3600', RELAY_INTERVAL_MS: '100' })));
afterAll(() => h.close());

const outboxRowOf = async (metadataKey: string) => h.db('outbox').where('metadata_hash', hashKey(metadataKey)).first<{ queued_at: Date | null } | undefined>();

describe('the outbox row of an e-mail', () => {
  it('stays after the hand-off to the queue, until an outcome is known', async () => {
    const created = (await h.http.post('/api/v1/share').set('Authorization', alice.auth).send({ secret: 'x', recipient: 'kept@example.com', ttl: 600 })).body as {
      metadata_key: string;
    };
    const row = await eventually(async () => {
      const r = await outboxRowOf(created.metadata_key);
      return r?.queued_at ? r : undefined;
    });
    expect(row.queued_at).toBeInstanceOf(Date);
    const meta = await h.http.get(`/api/v1/private/${created.metadata_key}`).set('Authorization', alice.auth);
    expect(meta.body).toMatchObject({ delivery_status: 'queued' });
  });

  it('is deleted when the secret expires, and the delivery then says failed rather than queued forever', async () => {
    const created = (await h.http.post('/api/v1/share').set('Authorization', alice.auth).send({ secret: 'x', recipient: 'late@example.com', ttl: 1 })).body as {
      metadata_key: string;
    };
    await eventually(async () => ((await outboxRowOf(created.metadata_key))?.queued_at ? true : undefined));
    await new Promise((r) => setTimeout(r, 1100));
    await h.secrets.sweep();
    expect(await outboxRowOf(created.metadata_key)).toBeUndefined();
    const meta = await h.http.get(`/api/v1/private/${created.metadata_key}`).set('Authorization', alice.auth);
    expect(meta.body).toMatchObject({ delivery_status: 'failed' });
    expect(String((meta.body as { delivery_reason: unknown }).delivery_reason)).toMatch(/expired before the e-mail was delivered/);
  });
});
