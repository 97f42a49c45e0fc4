import { startIdentity, type Harness } from '../harness.js';
import { atOnce, isConsent, loginForm, PASSWORD, signInClient } from './attack.js';

/**
 * Promise: sign-ins cannot starve the server. Passwords are checked in a bounded pool of worker
 * threads (PASSWORD_WORKERS, PASSWORD_QUEUE): a sign-in beyond it is refused at once with 503 and
 * Retry-After, before any password in the pool has been checked, and is counted nowhere; one
 * address has at most LOGIN_CONCURRENCY_PER_IP sign-ins in progress (429 at once beyond), while
 * other addresses go on. (That token requests keep their latency meanwhile is measured, not
 * tested: bench/login-flood.mjs.)
 */

// bcrypt at cost 11 takes ~120 ms (more on a busy machine): the flood below is sent in far less.
const COST = '11';

/** identity with bcrypt at COST on one worker, the per-address failure limit out of the way, `settings`, and a person `username`. */
async function startWith(settings: Record<string, string>, username: string): Promise<Harness> {
  const h = await startIdentity({ TRUST_PROXY: 'loopback', PASSWORD_HASH_COST: COST, PASSWORD_WORKERS: '1', LOGIN_MAX_FAILURES_PER_IP: '1000', ...settings });
  await h.cli('users', 'create', username, '--password', PASSWORD);
  return h;
}

/** `n` wrong sign-ins for `username` at once, from `ip(i)`; their answers in the order they arrived. */
async function flood(h: Harness, n: number, username: string, ip: (i: number) => string) {
  const client = await signInClient(h);
  const forms = await Promise.all(Array.from({ length: n }, (_, i) => loginForm(h, ip(i), client)));
  const arrived: { status: number; retryAfter: string | undefined; text: string }[] = [];
  await atOnce(n, async (i) => {
    const res = await forms[i]!.post(username, `guess-${i}`);
    arrived.push({ status: res.status, retryAfter: res.headers['retry-after'], text: res.text });
  });
  return arrived;
}

describe('a full bcrypt pool', () => {
  let h: Harness;
  beforeAll(async () => {
    // LOGIN_MAX_FAILURES as many as the flood: had the refused sign-ins been counted, rita would be blocked after it.
    h = await startWith({ PASSWORD_QUEUE: '1', LOGIN_CONCURRENCY_PER_IP: '1000', LOGIN_MAX_FAILURES: '8' }, 'rita');
  }, 60_000);
  afterAll(() => h?.close());

  it('refuses the sign-ins beyond it at once with 503 and Retry-After, and counts them nowhere', async () => {
    const arrived = await flood(h, 8, 'rita', () => '198.51.100.50');
    expect(arrived.every((a) => a.status === 401 || a.status === 503)).toBe(true);
    const busy = arrived.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const b of busy) {
      expect(Number(b.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(b.text).toContain('temporarily_unavailable');
    }
    // A refusal does not wait for a password to be checked: the first answers are refusals.
    expect(arrived[0]?.status).toBe(503);
    // The refused ones were not counted against rita at that address: she still signs in there.
    const after = await loginForm(h, '198.51.100.50');
    const signedIn = await after.browser.navigate(after.form.action, { ...after.form.hidden, username: 'rita', password: PASSWORD });
    expect(isConsent(signedIn.html)).toBe(true);
  });
});

describe('sign-ins at once from one address', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startWith({ PASSWORD_QUEUE: '100', LOGIN_CONCURRENCY_PER_IP: '2', LOGIN_MAX_FAILURES: '1000' }, 'sam');
  }, 60_000);
  afterAll(() => h?.close());

  it('past LOGIN_CONCURRENCY_PER_IP are refused at once with 429 and Retry-After; another address is not', async () => {
    const [crowd, other] = await Promise.all([flood(h, 6, 'sam', () => '198.51.100.60'), flood(h, 1, 'sam', () => '203.0.113.60')]);
    const refused = crowd.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(crowd.every((a) => a.status === 401 || a.status === 429)).toBe(true);
    for (const r of refused) {
      expect(r.retryAfter).toBe('1');
      expect(r.text).toContain('busy or briefly unavailable');
    }
    expect(crowd[0]?.status).toBe(429);
    expect(other.map((a) => a.status)).toEqual([401]);
    // Once they are answered, the address signs in again.
    const after = await loginForm(h, '198.51.100.60');
    expect(isConsent((await after.browser.navigate(after.form.action, { ...after.form.hidden, username: 'sam', password: PASSWORD })).html)).toBe(true);
  });
});
