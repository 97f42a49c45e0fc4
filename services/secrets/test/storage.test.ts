import { deriveKey, KeyRing, open, sha256 } from '@hush/common';
import { hashKey } from '../src/secrets/keys.js';
import { eventually } from '@hush/testing';
import { startSecrets, startSecretsWithAccount, type Account, type Harness } from './harness.js';

let h: Harness;
let alice: Account;
beforeAll(async () => ({ h, alice } = await startSecretsWithAccount({ TTL_MIN: '1', SWEEP_INTERVAL: '3600', RECEIPT_RETENTION: '0' })));
afterAll(() => h.close());

const share = (fields: Record<string, unknown>) => h.http.post('/api/v1/share').set('Authorization', alice.auth).send(fields);

/** Every table, every column, as text (bytea as hex and as latin1), as a thief with a dump would see it. */
async function dumpDatabase(): Promise<string> {
  let out = '';
  for (const table of ['accounts', 'api_tokens', 'metadata', 'secrets']) {
    for (const row of await h.db(table).select('*')) {
      for (const value of Object.values(row)) {
        out += Buffer.isBuffer(value) ? `${value.toString('hex')} ${value.toString('latin1')} ${value.toString('base64')}\n` : `${String(value)}\n`;
      }
    }
  }
  return out;
}

describe('a copy of the database plus the master key decrypts nothing', () => {
  it('stores no key, token, value, passphrase or address in clear, and the keys only as hashes (their hour and SHA-256)', async () => {
    const value = `the launch code is ${Math.random()}`;
    const created = (await share({ secret: value, passphrase: 'correct horse', recipient: 'someone@example.com', ttl: 600 })).body;
    const dump = await dumpDatabase();
    for (const needle of [value, created.secret_key, created.metadata_key, alice.token, 'correct horse', 'someone@example.com', 'someone']) {
      expect(dump).not.toContain(needle);
    }
    expect(dump).toContain(hashKey(created.secret_key).toString('hex'));
    expect(dump).toContain(hashKey(created.metadata_key).toString('hex'));
    expect(dump).toContain(sha256(alice.token).toString('hex'));
  });

  it('the master key with everything in the rows (hashes as salts, no salt) opens neither the value nor the sealed secret key', async () => {
    const created = (await share({ secret: 'unrecoverable', ttl: 600 })).body;
    const secretHash = hashKey(created.secret_key);
    const metadataHash = hashKey(created.metadata_key);
    const secret = await h.db('secrets').where('secret_hash', secretHash).first();
    const meta = await h.db('metadata').where('metadata_hash', metadataHash).first();
    const master = KeyRing.of(h.config.MASTER_KEY);
    const valueAad = `secret:${secretHash.toString('hex')}`;
    const metadataAad = `metadata:${metadataHash.toString('hex')}`;
    // The outer layer is the master key's (so a key rotation can rewrap it without the link) ...
    const innerValue = master.derive('hush:secret:value:wrap:v2').open(secret.ciphertext, valueAad);
    const innerSecretKey = master.derive('hush:metadata:secret-key:wrap:v2').open(meta.secret_key_sealed, metadataAad);
    // ... and what it holds opens under no key the master key and the rows give.
    const root = h.config.MASTER_KEY;
    const attempts = [
      () => open(deriveKey(root, 'hush:secret:value:inner:v2'), innerValue, valueAad),
      () => open(deriveKey(root, 'hush:secret:value:v1'), innerValue, valueAad),
      () => open(deriveKey(root, 'hush:secret:value:v1', secretHash), innerValue, valueAad),
      () => open(deriveKey(secretHash, 'hush:secret:value:inner:v2'), innerValue, valueAad),
      () => open(deriveKey(Buffer.from(secretHash.toString('hex')), 'hush:secret:value:inner:v2'), innerValue, valueAad),
      () => open(deriveKey(root, 'hush:metadata:secret-key:inner:v2'), innerSecretKey, metadataAad),
      () => open(deriveKey(metadataHash, 'hush:metadata:secret-key:inner:v2'), innerSecretKey, metadataAad),
    ];
    for (const attempt of attempts) expect(attempt).toThrow();
    // ... while the secret key (which only the recipient holds) does open it: the test decrypts correctly.
    expect(open(deriveKey(Buffer.from(created.secret_key), 'hush:secret:value:inner:v2'), innerValue, valueAad).toString()).toBe('unrecoverable');
    // The link alone opens nothing either: the outer layer needs the master key.
    expect(() => open(deriveKey(Buffer.from(created.secret_key), 'hush:secret:value:inner:v2'), secret.ciphertext, valueAad)).toThrow();
  });

  it('a row copied under another key fails authentication (the AAD binds ciphertext to its row)', async () => {
    const a = (await share({ secret: 'A', ttl: 600 })).body;
    const b = (await share({ secret: 'B', ttl: 600 })).body;
    const rowA = await h.db('secrets').where('secret_hash', hashKey(a.secret_key)).first();
    await h.db('secrets').where('secret_hash', hashKey(b.secret_key)).update({ ciphertext: rowA.ciphertext });
    const res = await h.http.post(`/api/v1/secret/${b.secret_key}`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ message: 'An unexpected error occurred', code: 'internal_error' });
  });

  it('the reading deletes the ciphertext row and the sealed copy of the secret key', async () => {
    const created = (await share({ secret: 'gone after reading', ttl: 600 })).body;
    const meta = () => h.db('metadata').where('metadata_hash', hashKey(created.metadata_key)).first();
    expect((await meta()).secret_key_sealed).not.toBeNull();
    await h.http.post(`/api/v1/secret/${created.secret_key}`);
    expect(await h.db('secrets').where('secret_hash', hashKey(created.secret_key)).first()).toBeUndefined();
    expect((await meta()).secret_key_sealed).toBeNull();
  });
});

// Concurrent reads of one key, racing a burn or the sweeper: test/security/one-time-read.test.ts.
describe('reads of many secrets at once', () => {
  it('100 parallel shares, then 100 parallel reads: every reader gets exactly its own value', async () => {
    const values = Array.from({ length: 100 }, (_, i) => `value ${i} ${Math.random()}`);
    const created = await Promise.all(values.map((secret, i) => share(i % 3 === 0 ? { secret, recipient: `r${i}@example.com`, ttl: 600 } : { secret, ttl: 600 })));
    expect(created.map((r) => r.status)).toEqual(values.map(() => 200));
    const reads = await Promise.all(created.map((r) => h.http.post(`/api/v1/secret/${r.body.secret_key}`)));
    expect(reads.map((r) => r.body.value)).toEqual(values);
    const metadata = await Promise.all(created.map((r) => h.http.post(`/api/v1/private/${r.body.metadata_key}`).set('Authorization', alice.auth)));
    expect(metadata.map((m) => m.body.state)).toEqual(values.map(() => 'received'));
  });
});

describe('expiry', () => {
  // A lifetime ends by moving its end into the past in PostgreSQL, whose clock the service compares
  // with: no wait for real seconds, which a busy machine could stretch past the next lifetime too.
  const endSecret = async (s: { secret_key: string; metadata_key: string }) => {
    const ended = h.db.raw(`now() - interval '1 second'`);
    await h.db('secrets').where('secret_hash', hashKey(s.secret_key)).update({ expires_at: ended });
    await h.db('metadata').where('metadata_hash', hashKey(s.metadata_key)).update({ secret_expires_at: ended });
  };
  const endReceipt = (s: { metadata_key: string }) =>
    h
      .db('metadata')
      .where('metadata_hash', hashKey(s.metadata_key))
      .update({ expires_at: h.db.raw(`now() - interval '1 second'`) });
  const lifetimes = async (s: { metadata_key: string }) => {
    const row = await h.db('metadata').where('metadata_hash', hashKey(s.metadata_key)).first<{ created_at: Date; secret_expires_at: Date; expires_at: Date }>();
    return { secret: (row.secret_expires_at.getTime() - row.created_at.getTime()) / 1000, receipt: (row.expires_at.getTime() - row.created_at.getTime()) / 1000 };
  };

  it('an expired secret is never returned, even before the sweeper runs; metadata says expired; metadata lives 2 x ttl', async () => {
    const created = (await share({ secret: 'short-lived', ttl: 60 })).body;
    expect(created).toMatchObject({ ttl: 60, secret_ttl: 60, metadata_ttl: 120 });
    const lifetime = await lifetimes(created);
    expect(lifetime.secret).toBeCloseTo(60, 0);
    expect(lifetime.receipt).toBeCloseTo(120, 0);
    await endSecret(created);
    expect(await h.db('secrets').where('secret_hash', hashKey(created.secret_key)).first()).toBeDefined(); // not swept yet
    const read = await h.http.post(`/api/v1/secret/${created.secret_key}`);
    expect(read.status).toBe(404);
    expect(read.body.code).toBe('unknown_secret');
    const meta = await h.http.post(`/api/v1/private/${created.metadata_key}`).set('Authorization', alice.auth);
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({ state: 'expired', secret_key: null, secret_ttl: 0 });
    expect((await h.http.post(`/api/v1/private/${created.metadata_key}/burn`).set('Authorization', alice.auth)).status).toBe(404);
    await endReceipt(created);
    expect((await h.http.get(`/api/v1/private/${created.metadata_key}`).set('Authorization', alice.auth)).status).toBe(404);
    const recent = await h.http.get('/api/v1/private/recent?limit=100').set('Authorization', alice.auth);
    expect(recent.body.map((m: { metadata_shortkey: string }) => m.metadata_shortkey)).not.toContain(created.metadata_key.slice(0, 6));
  });

  it('the sweeper deletes expired secrets, metadata and sealed keys; it is idempotent; live rows stay', async () => {
    const live = (await share({ secret: 'live', ttl: 600 })).body;
    const dead = (await share({ secret: 'dead', ttl: 60 })).body;
    await endSecret(dead);
    const first = await h.secrets.sweep();
    expect(first.secrets).toBeGreaterThanOrEqual(1);
    expect(first.sealedKeys).toBeGreaterThanOrEqual(1);
    expect(await h.db('secrets').where('secret_hash', hashKey(dead.secret_key)).first()).toBeUndefined();
    expect((await h.db('metadata').where('metadata_hash', hashKey(dead.metadata_key)).first()).secret_key_sealed).toBeNull();
    await endReceipt(dead);
    expect((await h.secrets.sweep()).metadata).toBeGreaterThanOrEqual(1);
    expect(await h.db('metadata').where('metadata_hash', hashKey(dead.metadata_key)).first()).toBeUndefined();
    expect(await h.secrets.sweep()).toEqual({ secrets: 0, metadata: 0, sealedKeys: 0 });
    expect((await h.http.post(`/api/v1/secret/${live.secret_key}`)).body.value).toBe('live');
  });

  it('the sweeper runs on its own timer (SWEEP_INTERVAL, 30 s by default: expired rows are gone within a minute)', async () => {
    expect((await import('../src/config.js')).readConfig({ MASTER_KEY: 'a'.repeat(64), MAIL_SEALING_KEY: 'b'.repeat(64) }).SWEEP_INTERVAL).toBeLessThanOrEqual(30);
    const timed = await startSecrets({ TTL_MIN: '1', SWEEP_INTERVAL: '1' });
    try {
      const bob = await timed.account();
      const created = (await timed.http.post('/api/v1/share').set('Authorization', bob.auth).send({ secret: 'x', ttl: 1 })).body;
      const row = () => timed.db('secrets').where('secret_hash', hashKey(created.secret_key)).first();
      expect(await row()).toBeDefined();
      // Gone without a sweep() from the test: the service's timer swept it.
      await eventually(async () => ((await row()) ? undefined : true), 15_000, 100);
    } finally {
      await timed.close();
    }
  });
});
