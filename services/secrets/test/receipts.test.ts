import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { hashKey } from '../src/secrets/keys.js';
import { startSecretsWithAccount, type Account, type Harness } from './harness.js';

/**
 * What stays after a secret is gone: the receipt keeps the lifecycle (RECEIPT_RETENTION, 30 days
 * by default) while the content is destroyed when it always was; a dump of the whole database then
 * holds nothing of the content (value, ciphertext, sealed key).
 */
let h: Harness;
let alice: Account;
beforeAll(async () => ({ h, alice } = await startSecretsWithAccount({ TTL_MIN: '1', SWEEP_INTERVAL: '3600' })));
afterAll(() => h.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const share = async (fields: Record<string, string | number>) => {
  const res = await h.http.post('/api/v1/share').set('Authorization', alice.auth).send(fields);
  expect(res.status).toBe(200);
  return res.body as { secret_key: string; metadata_key: string; metadata_ttl: number };
};
const metadata = (key: string) => h.http.get(`/api/v1/private/${key}`).set('Authorization', alice.auth);

/** Every row of every table of the service's schema, as text (bytea as hex). */
async function everyRow(): Promise<string> {
  const { rows } = await h.db.raw<{ rows: { table_name: string }[] }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { table_name } of rows) {
    const dump = await h.db.raw<{ rows: { row: string }[] }>(`SELECT row_to_json(t)::text AS row FROM ?? t`, [table_name]);
    parts.push(...dump.rows.map((r) => `${table_name}: ${r.row}`));
  }
  return parts.join('\n');
}

it('after expiry the receipt still shows the lifecycle, and neither a pg_dump nor every row holds anything of the content', async () => {
  const value = 'content-marker-Ω-0d5c9f';
  const expiring = await share({ secret: value, ttl: 1 });
  // Read and burned while they live: on a busy machine a second may pass before the reveal below.
  const read = await share({ secret: `${value}-read`, ttl: 600 });
  const burned = await share({ secret: `${value}-burned`, ttl: 600 });
  expect(expiring.metadata_ttl).toBe(2); // as Onetime Secret reports it at creation
  const stored = await h.db('secrets').where('secret_hash', hashKey(expiring.secret_key)).first<{ ciphertext: Buffer }>();
  const sealedKey = await h.db('metadata').where('metadata_hash', hashKey(expiring.metadata_key)).first<{ secret_key_sealed: Buffer }>();
  const contents = [stored.ciphertext, sealedKey.secret_key_sealed].map((b) => b.toString('hex'));
  expect((await h.http.post(`/api/v1/secret/${read.secret_key}`)).status).toBe(200);
  expect((await h.http.post(`/api/v1/private/${burned.metadata_key}/burn`).set('Authorization', alice.auth)).status).toBe(200);

  // Past 2 x ttl (Onetime Secret's metadata lifetime, the receipt's before RECEIPT_RETENTION), and swept.
  await sleep(2200);
  await h.secrets.sweep();

  const expired = await metadata(expiring.metadata_key);
  expect(expired.status).toBe(200);
  expect(expired.body).toMatchObject({ state: 'expired', secret_key: null, secret_ttl: 0, created: expect.any(Number), received: 0 });
  expect((await metadata(read.metadata_key)).body).toMatchObject({ state: 'received', received: expect.any(Number) });
  expect((await metadata(burned.metadata_key)).body).toMatchObject({ state: 'burned', burned: expect.any(Number) });
  const page = await h.http.get(`/private/${expiring.metadata_key}`);
  expect(page.status).toBe(200);
  expect(page.text).toContain('data-state="expired"');
  expect(page.text).toMatch(/<dt>Expired<\/dt><dd><span id="expired">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/span>/);
  expect((await h.http.post(`/api/v1/secret/${expiring.secret_key}`)).status).toBe(404);

  const rows = await everyRow();
  const { stdout: dump } = await promisify(execFile)('pg_dump', ['--data-only', '--no-owner', h.config.DATABASE_URL], { maxBuffer: 64 * 1024 * 1024 });
  for (const text of [rows, dump]) {
    expect(text).toContain(hashKey(expiring.metadata_key).toString('hex')); // the receipt is there...
    expect(text).not.toContain(value); // ...nothing of the content is
    expect(text).not.toContain(hashKey(expiring.secret_key).toString('hex'));
    for (const hex of contents) expect(text).not.toContain(hex);
  }
});

it('with RECEIPT_RETENTION=0 the receipt lives 2 x ttl, as before', async () => {
  const short = await startSecretsWithAccount({ TTL_MIN: '1', SWEEP_INTERVAL: '3600', RECEIPT_RETENTION: '0' });
  try {
    const res = await short.h.http.post('/api/v1/share').set('Authorization', short.alice.auth).send({ secret: 'x', ttl: 1 });
    await sleep(2100);
    expect((await short.h.http.get(`/api/v1/private/${res.body.metadata_key}`)).status).toBe(404);
  } finally {
    await short.h.close();
  }
});
