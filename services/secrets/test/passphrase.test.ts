import { readdirSync, readFileSync } from 'node:fs';
import { hashKey } from '../src/secrets/keys.js';
import { startSecrets, startSecretsWithAccount, type Account, type Harness } from './harness.js';

let h: Harness;
let alice: Account;
beforeAll(async () => ({ h, alice } = await startSecretsWithAccount({ PASSPHRASE_MAX_ATTEMPTS: '3' })));
afterAll(() => h.close());

async function shareWith(passphrase: string, secret = 'behind a passphrase') {
  const res = await h.http.post('/api/v1/share').set('Authorization', alice.auth).send({ secret, passphrase });
  expect(res.status).toBe(200);
  expect(res.body.passphrase_required).toBe(true);
  return res.body as { secret_key: string; metadata_key: string };
}
const read = (key: string, passphrase?: string) => h.http.post(`/api/v1/secret/${key}`).send(passphrase === undefined ? {} : { passphrase });

describe('passphrases', () => {
  it('a missing passphrase is 401 passphrase_required and costs nothing', async () => {
    const s = await shareWith('open sesame');
    for (let i = 0; i < 5; i++) {
      const res = await read(s.secret_key);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'passphrase_required', message: 'This secret requires a passphrase' });
    }
    expect((await read(s.secret_key, 'open sesame')).body.value).toBe('behind a passphrase');
  });

  it('a wrong passphrase is 401 passphrase_incorrect and the secret stays; the right one then reads it once', async () => {
    const s = await shareWith('open sesame');
    const wrong = await read(s.secret_key, 'open barley');
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('passphrase_incorrect');
    expect(wrong.body.message).toMatch(/2 attempts left/);
    const meta = await h.http.get(`/api/v1/private/${s.metadata_key}`).set('Authorization', alice.auth);
    expect(meta.body.state).toBe('new');
    expect((await read(s.secret_key, 'open sesame')).body).toEqual({ secret_key: s.secret_key, value: 'behind a passphrase' });
    expect((await read(s.secret_key, 'open sesame')).status).toBe(404);
  });

  it('the attempt that reaches the limit (3 here, 5 by default) burns the secret; afterwards even the right passphrase gets 404', async () => {
    const s = await shareWith('right');
    expect((await read(s.secret_key, 'wrong1')).body.message).toMatch(/2 attempts left/);
    expect((await read(s.secret_key, 'wrong2')).body.message).toMatch(/1 attempt left/);
    const last = await read(s.secret_key, 'wrong3');
    expect(last.status).toBe(401);
    expect(last.body.message).toMatch(/destroyed/);
    expect((await read(s.secret_key, 'right')).status).toBe(404);
    const meta = await h.http.get(`/api/v1/private/${s.metadata_key}`).set('Authorization', alice.auth);
    expect(meta.body).toMatchObject({ state: 'burned', secret_key: null });
    expect(await h.db('secrets').where('secret_hash', hashKey(s.secret_key)).first()).toBeUndefined();
  });

  it('parallel guesses cannot exceed the limit: of 20 concurrent wrong guesses, exactly 3 are checked', async () => {
    const s = await shareWith('right');
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => read(s.secret_key, `guess-${i}`)));
    const checked = results.filter((r) => r.body.code === 'passphrase_incorrect');
    expect(checked).toHaveLength(3);
    expect(results.filter((r) => r.status === 404)).toHaveLength(17);
    expect((await read(s.secret_key, 'right')).status).toBe(404);
  });

  it('the passphrase is stored only as a bcrypt hash (of its SHA-256, so all of a long passphrase counts)', async () => {
    const long = 'x'.repeat(80);
    const s = await shareWith(`${long}A`);
    const rows = await h.db('secrets').select('passphrase_hash');
    const hashes = rows.map((r) => String(r.passphrase_hash));
    expect(hashes.some((x) => /^\$2[aby]\$04\$/.test(x))).toBe(true);
    expect(JSON.stringify(await h.db('secrets').select('*'))).not.toContain(long);
    // Same first 72 bytes, different passphrase: refused (plain bcrypt would accept it).
    expect((await read(s.secret_key, `${long}B`)).body.code).toBe('passphrase_incorrect');
    expect((await read(s.secret_key, `${long}A`)).status).toBe(200);
  });

  it('a passphrase given for a secret without one is ignored', async () => {
    const res = await h.http.post('/api/v1/share').set('Authorization', alice.auth).send({ secret: 'plain' });
    expect((await read(res.body.secret_key, 'whatever')).body.value).toBe('plain');
  });
});

/** Each thread of this process (Linux): its nice value and the CPU it has used, in clock ticks. */
function threads(): Map<string, { nice: number; cpu: number }> {
  const of = (task: string) => {
    const fields = readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return { nice: Number(fields[16]), cpu: Number(fields[11]) + Number(fields[12]) };
  };
  return new Map(readdirSync('/proc/self/task').map((task) => [task, of(task)]));
}

describe('bcrypt never blocks the event loop', () => {
  // The CPU each thread used, not how long anything took: a busy machine changes neither.
  it('production cost (12) hashing and verifying run in worker threads, not on the event loop', async () => {
    if (process.platform !== 'linux') return;
    const strong = await startSecrets({ PASSPHRASE_HASH_COST: '12', PASSPHRASE_WORKERS: '1' });
    try {
      const bob = await strong.account();
      const before = threads();
      const created = await strong.http.post('/api/v1/share').set('Authorization', bob.auth).send({ secret: 'x', passphrase: 'pw' });
      const stored = await strong.db('secrets').first('passphrase_hash');
      const revealed = await strong.http.post(`/api/v1/secret/${created.body.secret_key}`).send({ passphrase: 'pw' });
      const after = threads();
      expect(String(stored?.passphrase_hash)).toMatch(/^\$2b\$12\$/);
      expect(revealed.body.value).toBe('x');
      // The pool's worker runs at nice 19 (bcrypt-pool.ts); a cost-12 hash and its check are
      // hundreds of milliseconds of CPU, which went to it, not to the loop's thread.
      const used = (task: string) => (after.get(task)?.cpu ?? 0) - (before.get(task)?.cpu ?? 0);
      // Other pools of this file's services run at nice 19 too: their threads, idle here, add nothing.
      const workers = [...after].filter(([, t]) => t.nice === 19).map(([task]) => task);
      expect(workers.length).toBeGreaterThanOrEqual(1);
      expect(workers.reduce((sum, task) => sum + used(task), 0)).toBeGreaterThan(used(String(process.pid)));
    } finally {
      await strong.close();
    }
    // At nice 19 the hashes get only the CPU the rest of a busy machine leaves idle.
  }, 120_000);
});
