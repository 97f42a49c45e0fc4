import { TcpProxy, testRedisUrl } from '@hush/testing';
import { atOnce, isConsent, loginForm, PASSWORD, tally } from './attack.js';
import { startIdentity, type Harness } from '../harness.js';

/**
 * Promise: wrong passwords for one account from one address are evaluated at most
 * LOGIN_MAX_FAILURES times per AUTH_FAILURE_WINDOW, however many are sent at once; past that every
 * attempt from that address is refused (429, Retry-After), even the right password, while the
 * person still signs in from another address. A right password gives its attempt back.
 * "Evaluated" is what the attacker sees: a 401 ("Invalid username or password") is an answer about
 * the password, a 429 is none.
 */
const MAX = 5;
let h: Harness;

beforeAll(async () => {
  // Nothing else in the way: the per-address failure limit, the per-address concurrency cap and the
  // bcrypt queue are far above the flood, so only the per-account limit can answer 429.
  h = await startIdentity({
    TRUST_PROXY: 'loopback',
    LOGIN_MAX_FAILURES: String(MAX),
    LOGIN_MAX_FAILURES_PER_IP: '1000',
    LOGIN_CONCURRENCY_PER_IP: '1000',
    PASSWORD_QUEUE: '1000',
    AUTH_FAILURE_WINDOW: '300',
  });
}, 60_000);
afterAll(() => h?.close());

const newPerson = async () => {
  const username = `victim-${Math.random().toString(36).slice(2, 10)}`;
  await h.cli('users', 'create', username, '--password', PASSWORD);
  return username;
};

describe('wrong passwords sent at once for one account', () => {
  it(`of 20 sent at once from one address, exactly ${MAX} are answered about the password, the rest 429 with Retry-After`, async () => {
    const victim = await newPerson();
    const { post } = await loginForm(h, '198.51.100.20');
    const answers = await atOnce(20, (i) => post(victim, `guess-${i}`));
    expect(tally(answers.map((a) => a.status))).toEqual({ 401: MAX, 429: 20 - MAX });
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.text).toContain('Too many failed sign-in attempts');
    }

    // The right password from that address is refused as well: the limit is on attempts, not on failures alone.
    const right = await post(victim, PASSWORD);
    expect(right.status).toBe(429);

    // The person, elsewhere, is not locked out.
    const elsewhere = await loginForm(h, '203.0.113.20');
    const signedIn = await elsewhere.browser.navigate(elsewhere.form.action, { ...elsewhere.form.hidden, username: victim, password: PASSWORD });
    expect(isConsent(signedIn.html)).toBe(true);
  });

  it('a right password gives its attempt back: after it, a typo is still answered about the password', async () => {
    const person = await newPerson();
    const ip = '198.51.100.21';
    const { post } = await loginForm(h, ip);
    for (let i = 0; i < MAX - 1; i++) expect((await post(person, `typo-${i}`)).status).toBe(401);
    const again = await loginForm(h, ip);
    const signedIn = await again.browser.navigate(again.form.action, { ...again.form.hidden, username: person, password: PASSWORD });
    expect(isConsent(signedIn.html)).toBe(true);
    const next = await loginForm(h, ip);
    expect((await next.post(person, 'one-more-typo')).status).toBe(401);
    expect((await next.post(person, 'and-another')).status).toBe(429);
  });
});

describe('wrong passwords for many accounts from one address', () => {
  let ipHarness: Harness;
  beforeAll(async () => {
    ipHarness = await startIdentity({
      TRUST_PROXY: 'loopback',
      LOGIN_MAX_FAILURES: '1000',
      LOGIN_MAX_FAILURES_PER_IP: String(MAX),
      LOGIN_CONCURRENCY_PER_IP: '1000',
      PASSWORD_QUEUE: '1000',
    });
  }, 60_000);
  afterAll(() => ipHarness?.close());

  it(`of 20 sent at once for 20 accounts, exactly ${MAX} are answered about the password; another address is not affected`, async () => {
    const { post } = await loginForm(ipHarness, '198.51.100.30');
    const answers = await atOnce(20, (i) => post(`someone-${i}`, 'guess'));
    expect(tally(answers.map((a) => a.status))).toEqual({ 401: MAX, 429: 20 - MAX });
    const other = await loginForm(ipHarness, '203.0.113.30');
    expect((await other.post('someone-0', 'guess')).status).toBe(401);
  });
});

describe('wrong passwords at once while Redis is unreachable', () => {
  const proxy = new TcpProxy(testRedisUrl);
  let outage: Harness;
  beforeAll(async () => {
    await proxy.start();
    outage = await startIdentity(
      { TRUST_PROXY: 'loopback', LOGIN_MAX_FAILURES: String(MAX), LOGIN_MAX_FAILURES_PER_IP: '1000', LOGIN_CONCURRENCY_PER_IP: '1000', PASSWORD_QUEUE: '1000' },
      { redis: proxy },
    );
    await outage.cli('users', 'create', 'ursula', '--password', PASSWORD);
  }, 60_000);
  afterAll(async () => {
    await outage?.close();
    await proxy.stop();
  });

  it(`are still evaluated at most ${MAX} times, counted by this instance alone`, async () => {
    const { post } = await loginForm(outage, '198.51.100.90');
    await proxy.stop();
    try {
      const answers = await atOnce(20, (i) => post('ursula', `guess-${i}`));
      expect(tally(answers.map((a) => a.status))).toEqual({ 401: MAX, 429: 20 - MAX });
    } finally {
      await proxy.start();
    }
  });
});
