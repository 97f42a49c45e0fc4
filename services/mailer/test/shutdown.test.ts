import { aSecretLinkJob, producerJobOptions, startTestMailer, type MailerHarness } from './harness.js';
import { startSmtp, type TestSmtp } from '@hush/testing';

let smtp: TestSmtp;
let h: MailerHarness;
let dataStarted: () => void;
const sending = new Promise<void>((resolve) => (dataStarted = resolve));

beforeAll(async () => {
  // The server takes 1.5 s to accept each message, so the send is still in flight at close().
  smtp = await startSmtp({
    async beforeAccept() {
      dataStarted();
      await new Promise((r) => setTimeout(r, 1500));
    },
  });
  h = await startTestMailer(smtp.url);
});

afterAll(async () => {
  await h.close();
  await smtp.close();
});

test('when the mailer is closed during a send, then the in-flight e-mail completes and is reported before close resolves', async () => {
  const job = aSecretLinkJob();
  await h.add(job, producerJobOptions(job.deliveryId));
  await sending;

  const closing = Date.now();
  await h.mailer.close();
  const closed = Date.now();

  const messages = smtp.to(job.to);
  expect(messages).toHaveLength(1);
  expect(messages[0]!.at).toBeLessThanOrEqual(closed);
  expect(closed - closing).toBeGreaterThan(500);
  expect(await h.statusJob(job.deliveryId, 'sent')).toBeDefined();
  expect(await h.getJob(job.deliveryId)).toBeUndefined();
  expect(h.logs.some((l) => l.includes('"mailer stopped"'))).toBe(true);

  // close() is idempotent; the harness calls it again.
  await h.mailer.close();
});

test('when the mailer is closed, then a job queued afterwards stays queued for another worker', async () => {
  const job = aSecretLinkJob();
  await h.add(job, producerJobOptions(job.deliveryId));
  await new Promise((r) => setTimeout(r, 300));
  expect(smtp.to(job.to)).toHaveLength(0);
  expect(await (await h.getJob(job.deliveryId))?.getState()).toBe('waiting');
});
