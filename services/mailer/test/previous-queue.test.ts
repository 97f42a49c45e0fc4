import { PREVIOUS_MAIL_QUEUES, type AccountLinkJob } from '@hush/queue';
import { startSmtp, type TestSmtp } from '@hush/testing';
import { aSecretLinkJob, producerJobOptions, startTestMailer, type MailerHarness } from './harness.js';

/**
 * An upgrade renamed the mail queue (`hush-secret-link` to `hush-mail`): jobs a producer queued
 * under the old name before it was upgraded are still delivered, once each, and reported.
 */
let smtp: TestSmtp;
let h: MailerHarness;

beforeAll(async () => {
  smtp = await startSmtp();
  h = await startTestMailer(smtp.url);
});

afterAll(async () => {
  await h.close();
  await smtp.close();
});

test('the old name is among the previous ones', () => {
  expect(PREVIOUS_MAIL_QUEUES).toContain('hush-secret-link');
});

test('a secret link queued under the old name before the upgrade is sent, and sent is reported', async () => {
  const job = aSecretLinkJob();
  await h.addTo('hush-secret-link', job, producerJobOptions(job.deliveryId));

  const [message] = await smtp.waitFor(job.to);
  expect(message!.mail.text).toContain(job.link);
  expect(await h.waitForStatus(job.deliveryId, 'sent')).toEqual({ version: 1, deliveryId: job.deliveryId, status: 'sent', at: expect.any(Number) });
  expect(smtp.to(job.to)).toHaveLength(1);
});

test('an account e-mail identity queued under the old name is sent too', async () => {
  const link = aSecretLinkJob();
  const job: AccountLinkJob = {
    version: 1,
    kind: 'reset-password',
    deliveryId: link.deliveryId,
    to: link.to,
    username: 'alice',
    link: 'https://id.example/auth/realms/public/login-actions/action-token?key=abc',
    expiresAt: link.expiresAt,
  };
  await h.addTo('hush-secret-link', job, producerJobOptions(job.deliveryId), 'identity');

  const [message] = await smtp.waitFor(job.to);
  expect(message!.mail.text).toContain(job.link);
});
