import { Browser, startSmtp, TcpProxy, testRedisUrl, type TestSmtp } from '@hush/testing';
import { startIdentity, type Harness } from './harness.js';
import { askForReset, inlineMail, linkMailedTo } from './account-mail.js';

/**
 * The in-process fallback: DELIVERY_MODE=inline, identity sends its account e-mails itself with
 * the mailer's code, here with no Redis reachable at all (the rate limits count in memory, the
 * revocation announcements wait for Redis in the background).
 */
let h: Harness;
let smtp: TestSmtp;
const redis = new TcpProxy(testRedisUrl);
beforeAll(async () => {
  await redis.start();
  smtp = await startSmtp();
  h = await startIdentity(inlineMail(smtp), { redis });
  await h.cli('users', 'create', 'uma', '--password', 'correct horse battery staple', '--email', 'uma@example.com');
  await redis.stop(); // from here on there is no Redis
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

it('without Redis, a password reset is answered, mailed in-process and completed', async () => {
  const asked = await askForReset(h, 'uma', '198.51.100.7');
  expect(asked.status).toBe(200);
  const { link } = await linkMailedTo(smtp, 'uma@example.com');
  const browser = new Browser(new URL(link).origin);
  const page = await browser.navigate(link);
  const done = await browser.submit(page.html, 0, { password: 'a brand new passphrase', confirm: 'a brand new passphrase' });
  expect(done.res.status).toBe(200);
  expect(done.html).toContain('Your password has been changed.');
  const { rows } = await h.identity.context.db.raw<{ rows: { delivery_status: string }[] }>(`SELECT delivery_status FROM action_tokens`);
  expect(rows).toEqual([{ delivery_status: 'sent' }]);
}, 30_000);
