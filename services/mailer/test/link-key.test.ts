import { randomBytes } from 'node:crypto';
import { sealLinkKey } from '@hush/queue';
import { startSmtp, type TestSmtp } from '@hush/testing';
import { aSecretLinkJob, producerJobOptions, startTestMailer, type MailerHarness } from './harness.js';

/**
 * A zero-knowledge link identity hands over (docs/zero-knowledge.md): its key arrives sealed for
 * the mailer (LINK_KEY_SEALING_KEY, which the secrets service that queued the job lacks); the
 * mailer alone opens it and completes the link in the e-mail.
 */
let smtp: TestSmtp;
let withKey: MailerHarness;
let withoutKey: MailerHarness;
const linkKey = randomBytes(32);
beforeAll(async () => {
  smtp = await startSmtp();
  withKey = await startTestMailer(smtp.url, { LINK_KEY_SEALING_KEY: linkKey.toString('hex') });
  withoutKey = await startTestMailer(smtp.url);
});
afterAll(async () => {
  await withKey?.close();
  await withoutKey?.close();
  await smtp?.close();
});

it('opens the sealed key and puts it in the link as its fragment', async () => {
  const fragment = randomBytes(32).toString('base64url');
  const job = aSecretLinkJob({ keySealed: sealLinkKey(linkKey, fragment) });
  await withKey.add(job, producerJobOptions(job.deliveryId));
  const [message] = await smtp.waitFor(job.to);
  expect(message?.mail.text).toContain(`${job.link}#${fragment}`);
  expect(message?.mail.html).toContain(`href="${job.link}#${fragment}"`);
  await withKey.waitForStatus(job.deliveryId, 'sent');
});

it('without LINK_KEY_SEALING_KEY (or with another) it fails for good, naming the key, and sends nothing', async () => {
  const job = aSecretLinkJob({ keySealed: sealLinkKey(linkKey, randomBytes(32).toString('base64url')) });
  await withoutKey.add(job, producerJobOptions(job.deliveryId));
  const status = await withoutKey.waitForStatus(job.deliveryId, 'failed');
  expect(status.reason).toContain('LINK_KEY_SEALING_KEY');
  const other = aSecretLinkJob({ keySealed: sealLinkKey(randomBytes(32), randomBytes(32).toString('base64url')) });
  await withKey.add(other, producerJobOptions(other.deliveryId));
  expect((await withKey.waitForStatus(other.deliveryId, 'failed')).reason).toContain('does not open');
  expect(smtp.to(job.to)).toHaveLength(0);
  expect(smtp.to(other.to)).toHaveLength(0);
});
