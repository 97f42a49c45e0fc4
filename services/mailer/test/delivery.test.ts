import { randomBytes } from 'node:crypto';
import { jobSeal, obfuscateEmail, PREVIOUS_MAIL_QUEUES, type AccountLinkJob } from '@hush/queue';
import { aSecretLinkJob, producerJobOptions, sleep, startTestMailer, type MailerHarness } from './harness.js';
import { smtpReply, startSmtp, type TestSmtp } from '@hush/testing';

// Recipients whose local part starts with "deferred" get 451 for their first two RCPT TOs;
// "rejected" ones always get 550. Everyone else is accepted.
let smtp: TestSmtp;
let h: MailerHarness;

beforeAll(async () => {
  smtp = await startSmtp({
    onRcpt(address, attempt) {
      if (address.startsWith('deferred') && attempt <= 2) return smtpReply(451, '4.3.0 Try again later');
      if (address.startsWith('rejected')) return smtpReply(550, `5.1.1 <${address}>: Recipient address rejected`);
      return undefined;
    },
  });
  h = await startTestMailer(smtp.url);
});

afterAll(async () => {
  await h.close();
  await smtp.close();
});

/** Some time for a duplicate or a retry to show up, were there one. */
const settle = () => sleep(400);

describe('delivering a secret link', () => {
  test('when a job is queued, then exactly one e-mail with the link in text and HTML arrives, sent is reported and the job removed', async () => {
    const job = aSecretLinkJob({ sender: 'alice <b>&co</b>', passphraseRequired: false });
    await h.add(job, producerJobOptions(job.deliveryId));

    const [message] = await smtp.waitFor(job.to);
    const mail = message!.mail;
    expect(mail.subject).toBe('alice <b>&co</b> sent you a secret');
    expect(mail.text).toContain(job.link);
    expect(mail.text).toMatch(/works only once/);
    expect(mail.text).toMatch(/expires on \w+,? \d+ \w+ \d{4},? at \d\d:\d\d UTC/);
    expect(mail.text).toContain('No passphrase is needed');
    expect(mail.text).not.toMatch(/You need a passphrase/);
    expect(mail.html).toContain(`href="${job.link}"`);
    expect(mail.html).toContain('<strong>alice &lt;b&gt;&amp;co&lt;/b&gt;</strong> sent you a secret');
    expect(mail.html).not.toContain('<b>&co</b>');
    expect(mail.replyTo).toBeUndefined();
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');

    const status = await h.waitForStatus(job.deliveryId, 'sent');
    expect(status).toEqual({ version: 1, deliveryId: job.deliveryId, status: 'sent', at: expect.any(Number) });
    expect(Math.abs(status.at - Date.now() / 1000)).toBeLessThan(10);
    await settle();
    expect(smtp.to(job.to)).toHaveLength(1);
    expect(await h.getJob(job.deliveryId)).toBeUndefined();
  });

  test('when the job carries a language and a handover label, then the e-mail is in that language and names what it carries', async () => {
    const job = aSecretLinkJob({
      sender: 'hush-handover',
      passphraseRequired: false,
      locale: 'de-DE',
      handover: { kind: 'first_password', name: 'ops-oncall', by: 'Ada Admin' },
    });
    await h.add(job, producerJobOptions(job.deliveryId));

    const [message] = await smtp.waitFor(job.to);
    const mail = message!.mail;
    expect(mail.subject).toBe('Ihr erstes Passwort für das Konto ops-oncall');
    expect(mail.text).toContain('Ada Admin hat Ihnen Ihr erstes Passwort für das Konto ops-oncall übergeben');
    expect(mail.text).toContain(job.link);
    expect(mail.html).toContain('<html lang="de">');
    await h.waitForStatus(job.deliveryId, 'sent');
  });

  test('when a passphrase is required, then the e-mail says so (and holds no passphrase); a sender address becomes Reply-To', async () => {
    const job = aSecretLinkJob({ sender: 'bob@example.org', passphraseRequired: true });
    await h.add(job, producerJobOptions(job.deliveryId));

    const [message] = await smtp.waitFor(job.to);
    const mail = message!.mail;
    expect(mail.subject).toBe('bob@example.org sent you a secret');
    expect(mail.text).toContain('You need a passphrase to read it.');
    expect(mail.html).toContain('You need a passphrase to read it.');
    expect(mail.text).not.toContain('No passphrase');
    expect(mail.replyTo?.value[0]?.address).toBe('bob@example.org');
    await h.waitForStatus(job.deliveryId, 'sent');
  });

  test('when the same delivery is queued twice, then one e-mail is sent (the job id is the delivery id)', async () => {
    const job = aSecretLinkJob();
    await h.add(job, producerJobOptions(job.deliveryId));
    await h.add(job, producerJobOptions(job.deliveryId));
    await smtp.waitFor(job.to);
    await h.waitForStatus(job.deliveryId, 'sent');
    await settle();
    expect(smtp.to(job.to)).toHaveLength(1);
  });

  test('when an earlier attempt already sent the e-mail (its report failed), then the retry reports sent without sending again', async () => {
    const job = aSecretLinkJob();
    await h.markSent(job.deliveryId, 1_700_000_000);
    await h.add(job, producerJobOptions(job.deliveryId));

    const status = await h.waitForStatus(job.deliveryId, 'sent');
    expect(status.at).toBe(1_700_000_000);
    await settle();
    expect(smtp.rcptAttempts(job.to)).toBe(0);
    expect(await h.getJob(job.deliveryId)).toBeUndefined();
  });

  test('when SMTP answers 451 twice, then the e-mail arrives after retries, exactly once, and sent is reported', async () => {
    const job = aSecretLinkJob({ to: `deferred-${Date.now()}@example.com` });
    await h.add(job, producerJobOptions(job.deliveryId, 5));

    await smtp.waitFor(job.to);
    expect(smtp.rcptAttempts(job.to)).toBe(3);
    const status = await h.waitForStatus(job.deliveryId, 'sent');
    expect(status.status).toBe('sent');
    await settle();
    expect(smtp.to(job.to)).toHaveLength(1);
    expect(await h.statusJob(job.deliveryId, 'failed')).toBeUndefined();
  });

  test('when SMTP answers 451 on every attempt, then it gives up after the last one and reports failed', async () => {
    // attempts: 2, and this address is deferred twice: both attempts fail.
    const job = aSecretLinkJob({ to: `deferred-exhausted-${Date.now()}@example.com` });
    await h.add(job, producerJobOptions(job.deliveryId, 2));

    const status = await h.waitForStatus(job.deliveryId, 'failed');
    expect(status.reason).toBe('451 recipient deferred by the SMTP server (gave up after 2 attempts)');
    expect(smtp.rcptAttempts(job.to)).toBe(2);
    expect(smtp.to(job.to)).toHaveLength(0);
  });

  test('when SMTP answers 550, then there is no retry and failed is reported with a reason free of the address', async () => {
    const job = aSecretLinkJob({ to: `rejected-${Date.now()}@example.com` });
    await h.add(job, producerJobOptions(job.deliveryId, 5));

    const status = await h.waitForStatus(job.deliveryId, 'failed');
    expect(status).toEqual({
      version: 1,
      deliveryId: job.deliveryId,
      status: 'failed',
      at: expect.any(Number),
      reason: '550 recipient rejected by the SMTP server',
    });
    expect(status.reason).not.toContain(job.to);
    await settle();
    expect(smtp.rcptAttempts(job.to)).toBe(1);
    expect(smtp.to(job.to)).toHaveLength(0);
    expect(await h.getJob(job.deliveryId)).toBeUndefined();
    expect(await h.statusJob(job.deliveryId, 'sent')).toBeUndefined();
  });

  test('when the payload is invalid, then the job fails without retry, no e-mail is sent and failed is reported', async () => {
    const job = aSecretLinkJob();
    const bad = { ...job, to: 'not-an-address', link: 'javascript:alert(1)' };
    await h.add(bad, producerJobOptions(job.deliveryId, 5));

    const status = await h.waitForStatus(job.deliveryId, 'failed');
    expect(status.reason).toBe('invalid job payload');
    await settle();
    expect(smtp.rcptAttempts('not-an-address')).toBe(0);
    expect(smtp.received.some((r) => r.mail.text?.includes(job.link))).toBe(false);
    expect(await h.getJob(job.deliveryId)).toBeUndefined();
  });

  test('when a job is not sealed (a producer without the sealing key), then it fails for good with that reason and nothing is sent', async () => {
    const job = aSecretLinkJob();
    await h.addRaw(job, producerJobOptions(job.deliveryId, 5));
    expect((await h.waitForStatus(job.deliveryId, 'failed')).reason).toBe('invalid job payload: not a sealed mail job');
    await settle();
    expect(smtp.rcptAttempts(job.to)).toBe(0);
    expect(await h.getJob(job.deliveryId)).toBeUndefined();
  });

  test('when a job is sealed under another key, then it fails for good naming MAIL_SEALING_KEY and nothing is sent', async () => {
    const job = aSecretLinkJob();
    await h.addRaw(jobSeal(randomBytes(32)).seal(job), producerJobOptions(job.deliveryId, 5));
    const status = await h.waitForStatus(job.deliveryId, 'failed');
    expect(status.reason).toMatch(/^job seal does not open: MAIL_SEALING_KEY differs/);
    await settle();
    expect(smtp.rcptAttempts(job.to)).toBe(0);
    expect(h.logs.some((line) => line.includes(job.link) || line.includes(job.to))).toBe(false);
  });

  test('when a link that is not a web page is queued, then it is refused as invalid', async () => {
    const job = aSecretLinkJob({ link: 'javascript:alert(1)' });
    await h.add(job, producerJobOptions(job.deliveryId, 5));
    expect((await h.waitForStatus(job.deliveryId, 'failed')).reason).toBe('invalid job payload');
    expect(smtp.to(job.to)).toHaveLength(0);
  });

  test('logs carry the job id and the obfuscated address, never the link, the key or the full address', async () => {
    const ok = aSecretLinkJob();
    const rejected = aSecretLinkJob({ to: `rejected-log-${Date.now()}@example.com` });
    const deferred = aSecretLinkJob({ to: `deferred-log-${Date.now()}@example.com` });
    for (const job of [ok, rejected, deferred]) await h.add(job, producerJobOptions(job.deliveryId, 5));
    await h.waitForStatus(ok.deliveryId, 'sent');
    await h.waitForStatus(rejected.deliveryId, 'failed');
    await h.waitForStatus(deferred.deliveryId, 'sent');

    const lines = h.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const job of [ok, rejected, deferred]) {
      const mine = lines.filter((l) => l.jobId === job.deliveryId);
      expect(mine.some((l) => l.to === obfuscateEmail(job.to))).toBe(true);
    }
    expect(lines.some((l) => l.jobId === ok.deliveryId && l.msg === 'e-mail sent')).toBe(true);
    expect(lines.some((l) => l.jobId === rejected.deliveryId && l.msg === 'delivery failed')).toBe(true);

    // Every address and link used in this file, including earlier tests'.
    const all = h.logs.join('');
    for (const message of smtp.received) {
      for (const address of message.to) expect(all).not.toContain(address);
    }
    for (const job of [ok, rejected, deferred]) {
      expect(all).not.toContain(job.to);
      expect(all).not.toContain(job.link);
      expect(all).not.toContain(job.link.split('/').pop()!);
    }
    expect(all).not.toContain('/secret/');
  });
});

// An upgrade renamed the mail queue (hush-secret-link to hush-mail): jobs a producer queued under
// the old name before it was upgraded are still delivered, once each, and reported.
describe('jobs queued under the old name of the mail queue', () => {
  test('the old name is among the previous ones the mailer consumes', () => {
    expect(PREVIOUS_MAIL_QUEUES).toContain('hush-secret-link');
  });

  test('a secret link queued there is sent once, and sent is reported', async () => {
    const job = aSecretLinkJob();
    await h.addTo('hush-secret-link', job, producerJobOptions(job.deliveryId));

    const [message] = await smtp.waitFor(job.to);
    expect(message!.mail.text).toContain(job.link);
    expect(await h.waitForStatus(job.deliveryId, 'sent')).toEqual({ version: 1, deliveryId: job.deliveryId, status: 'sent', at: expect.any(Number) });
    await settle();
    expect(smtp.to(job.to)).toHaveLength(1);
  });

  test('an account e-mail identity queued there is sent too', async () => {
    const { deliveryId, to, expiresAt } = aSecretLinkJob();
    const job: AccountLinkJob = {
      version: 1,
      kind: 'reset-password',
      deliveryId,
      to,
      username: 'alice',
      link: 'https://id.example/auth/realms/public/login-actions/action-token?key=abc',
      expiresAt,
    };
    await h.addTo('hush-secret-link', job, producerJobOptions(job.deliveryId), 'identity');

    const [message] = await smtp.waitFor(job.to);
    expect(message!.mail.text).toContain(job.link);
  });
});
