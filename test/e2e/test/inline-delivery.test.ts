import { smtpReply, type TestSmtpOptions } from '@hush/testing';
import { eventually, RedisProxy, startSystem, type System } from './system.js';

/**
 * The quickstart without Redis: DELIVERY_MODE=inline, the secrets service sends the
 * recipient's e-mail itself with the mailer's code (@hush/mail), retrying from its outbox.
 */
async function withoutRedis(smtp: TestSmtpOptions | undefined, run: (system: System) => Promise<void>) {
  const proxy = new RedisProxy();
  await proxy.start();
  const system = await startSystem({ redisUrl: proxy.url, startMailer: false, smtp, secretsEnv: { DELIVERY_MODE: 'inline' } });
  await proxy.stop(); // from here on there is no Redis at all
  try {
    await run(system);
  } finally {
    await system.close();
  }
}

async function share(system: System, recipient: string) {
  const { auth } = await system.secrets.account();
  const res = await system.secrets.http.post('/api/v1/share').set('Authorization', auth).type('form').send({ secret: 'inline-value', recipient });
  expect(res.status).toBe(200);
  const metadata = async () => (await system.secrets.http.get(`/api/v1/private/${res.body.metadata_key}`).set('Authorization', auth)).body as Record<string, unknown>;
  return { key: res.body.secret_key as string, metadata };
}

it('without Redis, the share succeeds and the e-mail is sent in-process', async () => {
  await withoutRedis(undefined, async (system) => {
    const s = await share(system, 'ivan@example.com');
    const [mail] = await system.smtp.waitFor('ivan@example.com');
    expect(mail?.mail.text).toContain(`/secret/${s.key}`);
    expect(mail?.mail.text).not.toContain('inline-value');
    await eventually(async () => ((await s.metadata())['delivery_status'] === 'sent' ? true : undefined));
  });
}, 30_000);

it('inline, a temporary SMTP failure is retried from the outbox; a permanent one shows failed', async () => {
  await withoutRedis(
    { onRcpt: (address, attempt) => (address.startsWith('never') ? smtpReply(550, 'no') : attempt <= 1 ? smtpReply(451, 'later') : undefined) },
    async (system) => {
      const retried = await share(system, 'judy@example.com');
      const refused = await share(system, 'never@example.com');
      await system.smtp.waitFor('judy@example.com', 1, 15_000);
      await eventually(async () => ((await retried.metadata())['delivery_status'] === 'sent' ? true : undefined));
      const failed = await eventually(async () => {
        const m = await refused.metadata();
        return m['delivery_status'] === 'failed' ? m : undefined;
      });
      expect(String(failed['delivery_reason'])).not.toContain('never@example.com');
      expect(system.smtp.rcptAttempts('never@example.com')).toBe(1);
    },
  );
}, 30_000);
