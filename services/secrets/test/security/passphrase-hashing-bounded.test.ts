import { startSecretsWithAccount, type Account, type Harness } from '../harness.js';

/**
 * Promise: passphrases cannot starve the service or be spent by its being busy. They are hashed
 * and checked in a bounded pool of worker threads (PASSPHRASE_WORKERS, PASSPHRASE_QUEUE); a
 * request beyond it is refused at once with 503 and Retry-After, before any passphrase in the pool
 * has been checked, and does nothing: a refused read spends no attempt of the secret
 * (PASSPHRASE_MAX_ATTEMPTS), a refused share stores no secret.
 */

// bcrypt at cost 11 takes ~120 ms (more on a busy machine): the requests below are sent in far less.
const MAX_ATTEMPTS = 5;
let h: Harness;
let alice: Account;

beforeAll(async () => {
  ({ h, alice } = await startSecretsWithAccount({ PASSPHRASE_HASH_COST: '11', PASSPHRASE_WORKERS: '1', PASSPHRASE_QUEUE: '1', PASSPHRASE_MAX_ATTEMPTS: String(MAX_ATTEMPTS) }));
}, 60_000);
afterAll(() => h?.close());

/** `n` requests at once; their answers in the order they arrived. */
async function atOnce(n: number, send: (i: number) => Promise<{ status: number; headers: Record<string, string>; body: Record<string, unknown> }>) {
  const arrived: { status: number; retryAfter: string | undefined; code: unknown }[] = [];
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const res = await send(i);
      arrived.push({ status: res.status, retryAfter: res.headers['retry-after'], code: res.body['code'] });
    }),
  );
  return arrived;
}

function expectBusyAtOnce(arrived: { status: number; retryAfter: string | undefined; code: unknown }[], done: number) {
  expect(arrived.every((a) => a.status === done || a.status === 503)).toBe(true);
  const busy = arrived.filter((a) => a.status === 503);
  expect(busy.length).toBeGreaterThan(0);
  for (const b of busy) {
    expect(Number(b.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(b.code).toBe('temporarily_unavailable');
  }
  expect(arrived[0]?.status).toBe(503);
}

describe('a full bcrypt pool', () => {
  it(`refuses reads beyond it at once with 503 and Retry-After, spending no attempt: after ${MAX_ATTEMPTS + 3} wrong passphrases at once the secret is still there`, async () => {
    const share = await h.http.post('/api/v1/share').set('Authorization', alice.auth).send({ secret: 'behind a passphrase', passphrase: 'open sesame' });
    expect(share.status).toBe(200);
    const key = String(share.body.secret_key);
    const arrived = await atOnce(MAX_ATTEMPTS + 3, (i) => h.http.post(`/api/v1/secret/${key}`).send({ passphrase: `guess ${i}` }));
    expectBusyAtOnce(arrived, 401);
    expect(arrived.filter((a) => a.status === 401).length).toBeLessThan(MAX_ATTEMPTS);
    const read = await h.http.post(`/api/v1/secret/${key}`).send({ passphrase: 'open sesame' });
    expect(read.body).toEqual({ secret_key: key, value: 'behind a passphrase' });
  });

  it('refuses shares beyond it at once with 503 and Retry-After, storing nothing for them', async () => {
    const before = (await h.db('secrets').count({ n: '*' }))[0] as { n: string };
    const arrived = await atOnce(8, (i) =>
      h.http
        .post('/api/v1/share')
        .set('Authorization', alice.auth)
        .send({ secret: `secret ${i}`, passphrase: `passphrase ${i}` }),
    );
    expectBusyAtOnce(arrived, 200);
    const after = (await h.db('secrets').count({ n: '*' }))[0] as { n: string };
    expect(Number(after.n) - Number(before.n)).toBe(arrived.filter((a) => a.status === 200).length);
  });
});
