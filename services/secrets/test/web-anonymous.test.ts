import request from 'supertest';
import { Browser, parseForms } from '@hush/testing';
import type { Harness as IdentityHarness } from '../../identity/test/harness.js';
import { startWebWithIdentity } from './identity.js';
import type { Harness } from './harness.js';

/**
 * The share page for a signed-out visitor when ANONYMOUS_SHARES=true (as Onetime Secret's home
 * page): anonymous plan, no recipient, a CSRF token bound to the browser, the per-IP limit; and,
 * with the setting off, the same page sends the visitor to sign in.
 */
let identity: IdentityHarness;
let h: Harness;

beforeAll(async () => {
  ({ identity, h } = await startWebWithIdentity({ ANONYMOUS_SHARES: 'true', ANONYMOUS_MAX_SECRET_LENGTH: '50', ANONYMOUS_RATE_LIMIT_MAX: '3' }));
}, 60_000);
afterAll(async () => {
  await h?.close();
  await identity?.close();
});

it('serves a signed-out visitor the share form with the anonymous plan and no recipient field', async () => {
  const page = await new Browser(h.url).navigate('/');
  expect(page.res.status).toBe(200);
  expect(page.html).toContain('shared anonymously');
  expect(page.html).toContain('Up to 50 characters (anonymous plan)');
  expect(page.html).not.toContain('name="recipient"');
  expect(page.html).not.toContain('My secrets</a>');
});

it('shares anonymously: the receipt page shows the link, and the link reveals the secret once', async () => {
  const browser = new Browser(h.url);
  const form = await browser.navigate('/');
  const done = await browser.submit(form.html, 0, { secret: 'door code 4711', ttl: '3600', action: 'share' });
  expect(done.res.status).toBe(200);
  expect(done.url).toMatch(/\/private\/[0-9a-z]{31}\?created=1$/);
  const link = /\/secret\/([0-9a-z]{31})/.exec(done.html)?.[1];
  expect(link).toBeDefined();
  const read = await request(h.url).post(`/api/v1/secret/${link}`);
  expect(read.body).toMatchObject({ value: 'door code 4711' });
  expect((await request(h.url).post(`/api/v1/secret/${link}`)).status).toBe(404);
});

it('refuses an anonymous form without its CSRF token, and keeps the plan and the no-recipient rule', async () => {
  const browser = new Browser(h.url);
  const form = await browser.navigate('/');
  const forged = await browser.send('/', { secret: 'x', ttl: '3600', action: 'share', csrf: 'forged' });
  expect(forged.status).toBe(400);
  expect(forged.text).toContain('The form expired or was not sent from this page');

  const tooLong = await browser.submit(form.html, 0, { secret: 'y'.repeat(51), ttl: '3600', action: 'share' });
  expect(tooLong.res.status).toBe(413);
  expect(tooLong.html).toContain('role="alert"');
  // The form comes back with a fresh token, still anonymous.
  expect(parseForms(tooLong.html)[0]?.hidden['csrf']).toBeTruthy();
  expect(tooLong.html).not.toContain('name="recipient"');
});

it('limits anonymous shares per address (ANONYMOUS_RATE_LIMIT_MAX)', async () => {
  const browser = new Browser(h.url);
  const form = await browser.navigate('/');
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) statuses.push((await browser.submit(form.html, 0, { secret: `s${i}`, ttl: '3600', action: 'share' })).res.status);
  expect(statuses.at(-1)).toBe(429);
});

describe('with ANONYMOUS_SHARES off (the default)', () => {
  let off: Harness;
  let offIdentity: IdentityHarness;
  beforeAll(async () => {
    ({ identity: offIdentity, h: off } = await startWebWithIdentity());
  }, 60_000);
  afterAll(async () => {
    await off?.close();
    await offIdentity?.close();
  });

  it('sends a signed-out visitor of the share page to sign in', async () => {
    const page = await new Browser(off.url).navigate('/');
    expect(page.leftTo).toMatch(new RegExp(`^${offIdentity.issuer}/protocol/openid-connect/auth\\?`));
  });
});
