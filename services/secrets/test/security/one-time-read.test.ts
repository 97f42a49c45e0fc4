import { randomBytes } from 'node:crypto';
import { hashKey } from '../../src/secrets/keys.js';
import { Browser, eventually, parseForms, startSmtp, type TestSmtp } from '@hush/testing';
import type { Harness as IdentityHarness } from '../../../identity/test/harness.js';
import { bearer, startSecrets, startSecretsWithAccount, type Account, type Harness } from '../harness.js';
import { startWithIdentity, userToken } from '../identity.js';

/**
 * Promise: a secret is read once. Attacked as an outsider would, over HTTP on the real service and
 * PostgreSQL: many reveals of one key at once, through the API and the reveal page together; reveals
 * racing a burn; reveals racing the sweeper once the TTL has passed; right and wrong passphrases at
 * once; a recipient-only secret asked for at once by its recipient and by everyone else. Whatever
 * arrives first, the value leaves the service at most once, and the receipt says what happened.
 * Nothing here waits for a duration: a TTL passes by moving the secret's end into the past in
 * PostgreSQL (its clock is the one the service compares with), expiry is awaited as the receipt
 * saying so, and the sweeper is the service's own `sweep()`.
 */

/** Each request is answered about the secret, not about the caller's rate (RATE_LIMIT_MAX=0). */
const QUIET = { RATE_LIMIT_MAX: '0', SWEEP_INTERVAL: '3600', PASSPHRASE_QUEUE: '1000' };
const PASSPHRASE = 'correct horse';

interface Answer {
  /** Who sent it, for the test's own bookkeeping. */
  by: string;
  status: number;
  /** Whether the answer carries the secret's value (the API's `value`, or the page showing it). */
  revealed: boolean;
}

type Shared = { secret_key: string; metadata_key: string };

/** A fresh value per secret, so a page that shows it can only have got it from this secret. */
const aValue = () => `the launch code is ${randomBytes(8).toString('hex')}`;

/** The reveal page opened in a browser of its own (a GET, which consumes nothing); `post` sends its form. */
async function revealPage(h: Harness, key: string) {
  const browser = new Browser(h.url);
  const page = await browser.navigate(`/secret/${key}`);
  expect(page.res.status).toBe(200);
  const form = parseForms(page.html).find((f) => 'csrf' in f.hidden);
  if (!form) throw new Error(`no form on the reveal page:\n${page.html}`);
  return { browser, html: page.html, post: (fields: Record<string, string> = {}) => browser.send(`/secret/${key}`, { ...form.hidden, ...fields }) };
}

function apiReveal(h: Harness, key: string, value: string, by: string, opts: { body?: object; token?: string } = {}): Promise<Answer> {
  const req = h.http.post(`/api/v1/secret/${key}`).send(opts.body ?? {});
  return (opts.token ? req.set('Authorization', bearer(opts.token)) : req).then((res) => ({ by, status: res.status, revealed: res.body?.value === value }));
}

const pageAnswer = (by: string, value: string) => (res: { status: number; text: string }) => ({ by, status: res.status, revealed: res.text.includes(value) });

const winners = (answers: Answer[]) => answers.filter((a) => a.revealed);

describe('a secret anyone with the link may read', () => {
  let h: Harness;
  let alice: Account;
  beforeAll(async () => ({ h, alice } = await startSecretsWithAccount({ ...QUIET, PASSPHRASE_MAX_ATTEMPTS: '100' })));
  afterAll(() => h?.close());

  const share = async (fields: Record<string, unknown>): Promise<Shared> => {
    const res = await h.http.post('/api/v1/share').set('Authorization', alice.auth).send(fields);
    expect(res.status).toBe(200);
    return res.body as Shared;
  };
  const receipt = async (metadataKey: string) => (await h.http.get(`/api/v1/private/${metadataKey}`).set('Authorization', alice.auth)).body as { state: string };

  it('of 200 reveals of one key at once, exactly one gets the value and 199 get 404', async () => {
    const value = aValue();
    const s = await share({ secret: value, ttl: 600 });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => apiReveal(h, s.secret_key, value, `api ${i}`)));
    expect(winners(answers)).toHaveLength(1);
    expect(answers.filter((a) => !a.revealed).map((a) => a.status)).toEqual(Array.from({ length: 199 }, () => 404));
    expect((await receipt(s.metadata_key)).state).toBe('received');
  });

  it('the reveal page and the API at once: of 40 forms and 40 API calls, exactly one gets the value, every other one is told it is gone', async () => {
    const value = aValue();
    const s = await share({ secret: value, ttl: 600 });
    const pages = await Promise.all(Array.from({ length: 40 }, () => revealPage(h, s.secret_key)));
    const answers = await Promise.all([
      ...pages.map((p, i) => p.post().then(pageAnswer(`page ${i}`, value))),
      ...Array.from({ length: 40 }, (_, i) => apiReveal(h, s.secret_key, value, `api ${i}`)),
    ]);
    expect(winners(answers)).toHaveLength(1);
    expect(answers.filter((a) => !a.revealed).map((a) => a.status)).toEqual(Array.from({ length: 79 }, () => 404));
    expect((await receipt(s.metadata_key)).state).toBe('received');
  });

  it('reveals racing a burn, ten times over: exactly one of them wins, every other one sees the secret gone, and the receipt names the winner', async () => {
    for (let round = 0; round < 10; round++) {
      const value = aValue();
      const s = await share({ secret: value, ttl: 600 });
      const page = await revealPage(h, s.secret_key);
      const burn = h.http
        .post(`/api/v1/private/${s.metadata_key}/burn`)
        .set('Authorization', alice.auth)
        .then((res) => ({ by: 'burn', status: res.status, revealed: res.body?.value === value }));
      const answers = await Promise.all([burn, page.post().then(pageAnswer('page', value)), ...Array.from({ length: 8 }, (_, i) => apiReveal(h, s.secret_key, value, `api ${i}`))]);
      const won = answers.filter((a) => a.status === 200);
      expect(won).toHaveLength(1);
      expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual(Array.from({ length: 9 }, () => 404));
      const burned = won[0]?.by === 'burn';
      expect(winners(answers)).toHaveLength(burned ? 0 : 1);
      expect((await receipt(s.metadata_key)).state).toBe(burned ? 'burned' : 'received');
    }
  });

  it('once the TTL has passed, reveals get nothing, before the sweeper runs and while it runs: sent the moment the receipt says expired, through the API and pages opened before, with and without passphrase', async () => {
    const values = Array.from({ length: 4 }, aValue);
    const shared = await Promise.all(values.map((secret, i) => share({ secret, ttl: 600, ...(i % 2 ? { passphrase: PASSPHRASE } : {}) })));
    // Opened while the secrets lived, submitted after: as a person who left the tab open would.
    const pages = await Promise.all(shared.map((s) => revealPage(h, s.secret_key)));
    for (const s of shared) {
      const ended = h.db.raw(`now() - interval '1 second'`);
      await h.db('secrets').where('secret_hash', hashKey(s.secret_key)).update({ expires_at: ended });
      await h.db('metadata').where('metadata_hash', hashKey(s.metadata_key)).update({ secret_expires_at: ended });
    }
    const revealAll = () =>
      shared.flatMap((s, i) => {
        const value = values[i] as string;
        const body: Record<string, string> = i % 2 ? { passphrase: PASSPHRASE } : {};
        return [...Array.from({ length: 10 }, (_, n) => apiReveal(h, s.secret_key, value, `api ${n}`, { body })), pages[i]!.post(body).then(pageAnswer('page', value))];
      });
    await eventually(async () => ((await Promise.all(shared.map((s) => receipt(s.metadata_key)))).every((r) => r.state === 'expired') ? true : undefined), 15_000, 20);

    // Expired, not yet swept (SWEEP_INTERVAL is an hour): the rows are there, and nothing comes out of them.
    const before = await Promise.all(revealAll());
    expect(winners(before)).toEqual([]);
    expect(new Set(before.map((a) => a.status))).toEqual(new Set([404]));

    // Again, racing the service's own sweeper.
    const [racing, swept] = await Promise.all([Promise.all(revealAll()), Promise.all(Array.from({ length: 4 }, () => h.secrets.sweep()))]);
    expect(winners(racing)).toEqual([]);
    expect(new Set(racing.map((a) => a.status))).toEqual(new Set([404]));
    // The sweeps, not a reveal, removed the four secrets: no reveal had taken them.
    expect(swept.reduce((n, run) => n + run.secrets, 0)).toBe(shared.length);
    for (const s of shared) expect((await receipt(s.metadata_key)).state).toBe('expired');
  });

  it('right and wrong passphrases at once, through the API and the page: exactly one value, to a right one; every wrong one is refused', async () => {
    const value = aValue();
    const s = await share({ secret: value, passphrase: PASSPHRASE, ttl: 600 });
    const pages = await Promise.all(Array.from({ length: 10 }, () => revealPage(h, s.secret_key)));
    const answers = await Promise.all([
      ...pages.map((p, i) => p.post({ passphrase: i % 2 ? PASSPHRASE : `not ${PASSPHRASE}` }).then(pageAnswer(i % 2 ? `right page ${i}` : `wrong page ${i}`, value))),
      ...Array.from({ length: 30 }, (_, i) => apiReveal(h, s.secret_key, value, `right api ${i}`, { body: { passphrase: PASSPHRASE } })),
      ...Array.from({ length: 30 }, (_, i) => apiReveal(h, s.secret_key, value, `wrong api ${i}`, { body: { passphrase: `guess ${i}` } })),
    ]);
    const won = winners(answers);
    expect(won).toHaveLength(1);
    expect(won[0]?.by).toMatch(/^right/);
    // A wrong passphrase is refused (401) or, once the secret is read, told it is gone (404).
    for (const a of answers.filter((x) => x.by.startsWith('wrong'))) expect([401, 404]).toContain(a.status);
    for (const a of answers.filter((x) => x.by.startsWith('right') && !x.revealed)) expect(a.status).toBe(404);
    expect((await receipt(s.metadata_key)).state).toBe('received');
  });

  it('right and wrong passphrases at once at the default limit of 5: at most one value and 5 passphrases checked; the receipt says read if one was, burned otherwise', async () => {
    const limited = await startSecrets({ ...QUIET });
    try {
      const bob = await limited.account();
      const value = aValue();
      const s = (await limited.http.post('/api/v1/share').set('Authorization', bob.auth).send({ secret: value, passphrase: PASSPHRASE })).body as Shared;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          limited.http
            .post(`/api/v1/secret/${s.secret_key}`)
            .send({ passphrase: i % 2 ? PASSPHRASE : `guess ${i}` })
            .then((res) => ({ status: res.status, code: res.body?.code as unknown, revealed: res.body?.value === value })),
        ),
      );
      const revealed = answers.filter((a) => a.revealed).length;
      expect(revealed).toBeLessThanOrEqual(1);
      expect(answers.filter((a) => a.code === 'passphrase_incorrect').length).toBeLessThanOrEqual(5);
      expect(answers.every((a) => a.revealed || a.status === 401 || a.status === 404)).toBe(true);
      const state = ((await limited.http.get(`/api/v1/private/${s.metadata_key}`).set('Authorization', bob.auth)).body as { state: string }).state;
      expect(state).toBe(revealed ? 'received' : 'burned');
      expect((await limited.http.post(`/api/v1/secret/${s.secret_key}`).send({ passphrase: PASSPHRASE })).status).toBe(404);
    } finally {
      await limited.close();
    }
  });
});

describe('a recipient-only secret', () => {
  const PASSWORD = 'correct horse battery staple';
  let smtp: TestSmtp;
  let identity: IdentityHarness;
  let h: Harness;
  let alice: Account;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    smtp = await startSmtp();
    ({ identity, h } = await startWithIdentity({ ...QUIET, DELIVERY_MODE: 'inline', SMTP_URL: smtp.url }));
    alice = await h.account();
    await identity.cli('users', 'create', 'bob', '--password', PASSWORD, '--email', 'bob@example.com', '--email-verified');
    await identity.cli('users', 'create', 'carol', '--password', PASSWORD, '--email', 'carol@example.com', '--email-verified');
    // Claims bob's address, but identity never verified it.
    await identity.cli('users', 'create', 'mallory', '--password', PASSWORD, '--email', 'Bob@Example.com');
    for (const user of ['bob', 'carol', 'mallory']) tokens[user] = await userToken(identity, user, PASSWORD, 'secrets:read');
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await identity?.close();
    await smtp?.close();
  });

  it('asked for at once by its recipient (token and e-mailed code) and by everyone else (anonymous, another account, an unverified claim of the address, wrong codes): the recipient alone gets it, once', async () => {
    const value = aValue();
    const shared = await h.http.post('/api/v1/share').set('Authorization', alice.auth).send({ secret: value, recipient: 'bob@example.com', recipient_only: true, ttl: 600 });
    expect(shared.status).toBe(200);
    const s = shared.body as Shared;
    await smtp.waitFor('bob@example.com', 1); // the link

    // The recipient, signed out, asks the page for a code; it goes to their address.
    const bobsPage = await revealPage(h, s.secret_key);
    const codePage = await bobsPage.browser.submit(bobsPage.html, 0, {});
    expect(codePage.res.status).toBe(200);
    const [, mail] = await smtp.waitFor('bob@example.com', 2);
    const code = /\b(\d{6})\b/.exec(mail?.mail.text ?? '')?.[1] as string;
    expect(code).toMatch(/^\d{6}$/);
    const wrongCode = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const strangers = await Promise.all(Array.from({ length: 4 }, () => revealPage(h, s.secret_key)));

    const answers = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => apiReveal(h, s.secret_key, value, `recipient token ${i}`, { token: tokens['bob'] })),
      bobsPage.post({ code }).then(pageAnswer('recipient code', value)),
      ...Array.from({ length: 10 }, (_, i) => apiReveal(h, s.secret_key, value, `anonymous ${i}`)),
      ...Array.from({ length: 10 }, (_, i) => apiReveal(h, s.secret_key, value, `another account ${i}`, { token: tokens['carol'] })),
      ...Array.from({ length: 10 }, (_, i) => apiReveal(h, s.secret_key, value, `unverified claim ${i}`, { token: tokens['mallory'] })),
      ...strangers.map((p, i) => p.post({ code: wrongCode(i) }).then(pageAnswer(`wrong code ${i}`, value))),
    ]);
    const won = winners(answers);
    expect(won).toHaveLength(1);
    expect(won[0]?.by).toMatch(/^recipient/);
    // Everyone else is refused (403), or their code is (401), or the secret is gone (404): never the value.
    for (const a of answers.filter((x) => !x.by.startsWith('recipient'))) expect([401, 403, 404]).toContain(a.status);
    for (const a of answers.filter((x) => x.by.startsWith('recipient') && !x.revealed)) expect([401, 404]).toContain(a.status);
    const receipt = (await h.http.get(`/api/v1/private/${s.metadata_key}`).set('Authorization', alice.auth)).body as { state: string; received_by: string };
    expect(receipt.state).toBe('received');
    expect(['bob', 'verified address']).toContain(receipt.received_by);
  });
});
