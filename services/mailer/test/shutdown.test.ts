import { aSecretLinkJob, producerJobOptions, startTestMailer, type MailerHarness } from './harness.js';
import { eventually, startSmtp, type TestSmtp } from '@hush/testing';

let smtp: TestSmtp;
let h: MailerHarness;
let dataStarted: () => void;
const sending = new Promise<void>((resolve) => (dataStarted = resolve));
let release: () => void;
const released = new Promise<void>((resolve) => (release = resolve));

beforeAll(async () => {
  // The server accepts a message only once the test releases it, so the send is in flight at close().
  smtp = await startSmtp({
    async beforeAccept() {
      dataStarted();
      await released;
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

  const closing = h.mailer.close().then(() => Date.now());
  // Released once close() has begun: a close that did not wait would resolve without the message.
  await eventually(async () => (h.logs.some((l) => l.includes('"mailer stopping')) ? true : undefined));
  release();
  const closed = await closing;

  const messages = smtp.to(job.to);
  expect(messages).toHaveLength(1);
  expect(messages[0]!.at).toBeLessThanOrEqual(closed);
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
