import { Redis } from 'ioredis';
import { newRecoveryCodes } from '../../src/login/recovery-codes.js';
import { codeAt } from '../../src/login/totp.js';
import { startIdentity, type Harness } from '../harness.js';
import { atOnce, isConsent, loginForm, otherThan, PASSWORD, personWithTotp, tally } from './attack.js';

/**
 * Promise: wrong second-factor codes (TOTP or recovery codes) for one person are evaluated at most
 * SECOND_FACTOR_MAX_FAILURES times per AUTH_FAILURE_WINDOW, however many are sent at once and
 * from however many sign-ins; past that every code is refused (429, Retry-After), even the right
 * one. A right code gives its attempt back. A 401 ("That code is wrong") is an answer about the
 * code; a 429 is none.
 */
const MAX = 5;
let h: Harness;
let redis: Redis;

beforeAll(async () => {
  h = await startIdentity({ TRUST_PROXY: 'loopback', SECOND_FACTOR_MAX_FAILURES: String(MAX), AUTH_FAILURE_WINDOW: '300' });
  redis = new Redis(h.config.REDIS_URL);
}, 60_000);
afterAll(async () => {
  redis.disconnect();
  await h?.close();
});

type Person = Awaited<ReturnType<typeof personWithTotp>>;

/** A sign-in of `p` from `ip`, past the password: sends a code on its code page (following redirects), answers the page. */
async function codeStep(p: Person, ip: string) {
  const { browser, post } = await loginForm(h, ip);
  const step = await post(p.username, PASSWORD);
  expect(step.text).toContain('name="code"');
  const action = /action="([^"]+\/otp)"/.exec(step.text)?.[1] as string;
  const hidden = Object.fromEntries([...step.text.matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1] as string, m[2] as string]));
  return async (code: string) => {
    const { res, html } = await browser.navigate(action, { ...hidden, code });
    return { status: res.status, headers: res.headers as Record<string, string>, text: html };
  };
}

const wrongTotp = (p: Person, i: number) => otherThan(codeAt(p.secret, Date.now()), 1 + i);

describe('wrong codes sent at once', () => {
  it(`of 100 wrong TOTP codes on one sign-in, exactly ${MAX} are answered about the code, the rest 429; then the right code is refused too`, async () => {
    const p = await personWithTotp(h, redis);
    const send = await codeStep(p, '198.51.100.40');
    const answers = await atOnce(100, (i) => send(wrongTotp(p, i)));
    expect(tally(answers.map((a) => a.status))).toEqual({ 401: MAX, 429: 100 - MAX });
    for (const refused of answers.filter((a) => a.status === 429)) {
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.text).toContain('Too many wrong codes');
    }
    expect((await send(codeAt(p.secret, Date.now()))).status).toBe(429);
  });

  it(`of 30 wrong recovery codes over three sign-ins, exactly ${MAX} are answered about the code; a real recovery code is then refused too`, async () => {
    const p = await personWithTotp(h, redis);
    const sends = [await codeStep(p, '198.51.100.41'), await codeStep(p, '198.51.100.42'), await codeStep(p, '198.51.100.43')];
    const guesses = newRecoveryCodes(30);
    const answers = await atOnce(30, (i) => sends[i % 3]!(guesses[i] as string));
    expect(tally(answers.map((a) => a.status))).toEqual({ 401: MAX, 429: 30 - MAX });
    expect((await sends[0]!(p.codes[0] as string)).status).toBe(429);
  });
});

describe('a right code', () => {
  it('gives its attempt back: after it, the person still has the attempts it had', async () => {
    const p = await personWithTotp(h, redis);
    const send = await codeStep(p, '198.51.100.44');
    for (let i = 0; i < MAX - 1; i++) expect((await send(wrongTotp(p, i))).status).toBe(401);
    expect(isConsent((await send(p.codes[0] as string)).text)).toBe(true);
    const again = await codeStep(p, '198.51.100.45');
    expect((await again(wrongTotp(p, 0))).status).toBe(401);
    expect((await again(wrongTotp(p, 1))).status).toBe(429);
  });
});
