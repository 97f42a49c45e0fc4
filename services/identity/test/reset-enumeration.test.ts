import { adminDatabaseUrl, Browser, parseForms, startSmtp, TcpProxy, type TestSmtp } from '@hush/testing';
import { startIdentity, type Harness } from './harness.js';
import { stable } from './account-mail.js';

/**
 * Account enumeration through "Forgot password?": the answer and its status must not tell an
 * existing account from a made-up one, and neither may its time. Time is not measured here (a
 * test's clock on a shared machine proves nothing): the answer is shown not to wait for the account
 * lookup at all — with PostgreSQL hung, both kinds of request are still answered, identically —
 * so nothing the lookup does can reach the answer's time. The work happens after the answer: the
 * existing account's e-mail arrives once PostgreSQL is back.
 */
let h: Harness;
let smtp: TestSmtp;
let postgres: TcpProxy;
beforeAll(async () => {
  smtp = await startSmtp();
  postgres = new TcpProxy(adminDatabaseUrl);
  await postgres.start();
  h = await startIdentity({ DELIVERY_MODE: 'inline', SMTP_URL: smtp.url, RESET_MAX_PER_ADDRESS: '1000', RESET_MAX_PER_IP: '1000' }, { postgres });
  await h.cli('users', 'create', 'existing', '--password', 'correct horse battery staple', '--email', 'existing@example.com');
});
afterAll(async () => {
  await h.close();
  await postgres.stop();
  await smtp.close();
});

/** A browser holding the reset form; `ask()` submits it once and says what came back. */
async function asker(login: string) {
  const browser = new Browser(new URL(h.issuer).origin);
  const form = parseForms((await browser.send(`${h.issuer}/login-actions/reset-credentials`)).text)[0]!;
  return async () => {
    const res = await browser.send(form.action, { ...form.hidden, login });
    return `${res.status}\n${stable(res.text)}`;
  };
}

test('the answer to an existing and a made-up account is the same page and status, and does not wait for the lookup', async () => {
  const known = await asker('existing');
  const unknown = await asker('made-up-account');
  const answers = new Set([await known(), await unknown(), await unknown(), await known()]);
  expect(answers.size).toBe(1);
  expect([...answers][0]).toMatch(/^200\n/);
  await smtp.waitFor('existing@example.com', 1);

  // PostgreSQL hangs: were the answer to wait for the lookup, neither would come back.
  postgres.stall();
  try {
    const during = new Set(await Promise.all([known(), unknown()]));
    expect(during).toEqual(answers);
  } finally {
    await postgres.stop();
    await postgres.start();
  }
}, 60_000);
