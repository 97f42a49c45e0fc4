import { randomBytes } from 'node:crypto';
import { sha256 } from '@hush/common';
import { hashKey, hourOf } from '../src/secrets/keys.js';
import { startSecretsWithAccount, type Account, type Harness } from './harness.js';

/**
 * Keys name the hour they were made in, and their stored hashes start with it (src/secrets/keys.ts),
 * so the index pages a share writes are those of the current hour. Keys made before keep working:
 * their rows hold the plain SHA-256 of the key, as they were written.
 */
let h: Harness;
let alice: Account;
beforeAll(async () => ({ h, alice } = await startSecretsWithAccount()));
afterAll(() => h.close());

/** A key as they were made before they named their hour: 160 random bits in base36. */
const keyMadeBefore = () =>
  BigInt(`0x${randomBytes(20).toString('hex')}`)
    .toString(36)
    .padStart(31, '0');

/** A share as the service stored it before keys named their hour: rows under the keys' plain SHA-256. */
async function shareMadeBefore(value: string): Promise<{ secretKey: string; metadataKey: string }> {
  const { crypto, secrets } = h.secrets.context;
  const secretKey = keyMadeBefore();
  const metadataKey = keyMadeBefore();
  const secretHash = sha256(secretKey);
  const metadataHash = sha256(metadataKey);
  await secrets.insert({
    metadataHash,
    metadataShortkey: metadataKey.slice(0, 6),
    secretHash,
    custid: alice.custid,
    ttl: 600,
    passphraseHash: null,
    recipientObfuscated: null,
    outbox: null,
    secretKeySealed: crypto.sealSecretKey(metadataKey, metadataHash, secretKey),
    metadataKeySealed: crypto.sealMetadataKey(alice.custid, metadataHash, metadataKey),
    state: 'new',
    anonymous: false,
    shareDomain: null,
    ciphertext: crypto.sealValue(secretKey, secretHash, undefined, value),
  });
  return { secretKey, metadataKey };
}

const share = async (secret: string) => {
  const res = await h.http.post('/api/v1/share').set('Authorization', alice.auth).type('form').send({ secret, ttl: '600' });
  expect(res.status).toBe(200);
  return res.body as { secret_key: string; metadata_key: string };
};
const metadata = (key: string) => h.http.post(`/api/v1/private/${key}`).set('Authorization', alice.auth);

it('a new share has keys that start with their hour, stored as that hour and their SHA-256', async () => {
  const before = hourOf(Date.now());
  const created = await share('hours');
  const after = hourOf(Date.now());
  for (const key of [created.secret_key, created.metadata_key]) {
    expect(key).toMatch(/^[u-z][0-9a-z]{30}$/);
    expect([before, after]).toContain(hashKey(key).readUInt16BE(0));
  }
  const secret = await h.db('secrets').where('secret_hash', hashKey(created.secret_key)).first<{ metadata_hash: Buffer }>();
  expect(secret.metadata_hash).toEqual(Buffer.concat([hashKey(created.metadata_key).subarray(0, 2), sha256(created.metadata_key)]));
  expect(await h.db('secrets').where('secret_hash', sha256(created.secret_key)).first()).toBeUndefined();
  expect((await metadata(created.metadata_key)).body).toMatchObject({ state: 'new', metadata_key: created.metadata_key });
  expect((await h.http.post(`/api/v1/secret/${created.secret_key}`)).body).toMatchObject({ value: 'hours' });
});

it('a secret stored before keys named their hour is shown, listed, read once, and its metadata says so', async () => {
  const old = await shareMadeBefore('from before');
  expect(old.secretKey).toMatch(/^[0-9a-t]/);
  const shown = await metadata(old.metadataKey);
  expect(shown.status).toBe(200);
  expect(shown.body).toMatchObject({ state: 'new', metadata_key: old.metadataKey, secret_key: old.secretKey });
  const recent = await h.http.get('/api/v1/private/recent').set('Authorization', alice.auth);
  expect(recent.body.map((m: { metadata_key: string }) => m.metadata_key)).toContain(old.metadataKey);

  const reads = await Promise.all([1, 2, 3].map(() => h.http.post(`/api/v1/secret/${old.secretKey}`)));
  expect(reads.map((r) => r.status).sort()).toEqual([200, 404, 404]);
  expect(reads.find((r) => r.status === 200)?.body).toMatchObject({ value: 'from before', secret_key: old.secretKey });
  expect((await metadata(old.metadataKey)).body).toMatchObject({ state: 'received' });
});

it('a secret stored before keys named their hour can be burned, and is gone then', async () => {
  const old = await shareMadeBefore('burn me');
  const burned = await h.http.post(`/api/v1/private/${old.metadataKey}/burn`).set('Authorization', alice.auth);
  expect(burned.status).toBe(200);
  expect(burned.body).toMatchObject({ state: 'burned' });
  expect((await h.http.post(`/api/v1/secret/${old.secretKey}`)).status).toBe(404);
  expect(await h.db('secrets').where('secret_hash', sha256(old.secretKey)).first()).toBeUndefined();
});
