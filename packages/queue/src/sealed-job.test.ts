import { randomBytes } from 'node:crypto';
import { deriveKey, KeyRing, seal } from '@hush/common/base';
import type { AccountLinkJob } from './account-link-job.js';
import { jobSeal, producerOf, UnsealableJobError } from './sealed-job.js';
import { isAccountLink, isNotification, isRecipientCode, isSecretRequest, mailJobName } from './mail-job.js';
import type { RecipientCodeJob } from './recipient-code-job.js';
import type { SecretRequestJob } from './secret-request-job.js';
import type { NotificationJob } from './notification-job.js';
import type { SecretLinkJob } from './secret-link-job.js';

const job: SecretLinkJob = {
  version: 1,
  deliveryId: 'delivery-1',
  to: 'bob@example.com',
  sender: 'alice',
  link: 'https://hush.example/secret/abc123',
  passphraseRequired: false,
  expiresAt: 1_900_000_000,
};

describe('sealed secret-link jobs', () => {
  const key = randomBytes(32);

  it('carry the delivery id in clear and nothing else of the job, and open to the same job', () => {
    const sealed = jobSeal(key).seal(job);
    expect(Object.keys(sealed).sort()).toEqual(['deliveryId', 'sealed', 'version']);
    expect(sealed.deliveryId).toBe('delivery-1');
    for (const clear of ['bob@example.com', 'bob', 'abc123', 'alice']) expect(JSON.stringify(sealed)).not.toContain(clear);
    expect(jobSeal(key).open(sealed)).toEqual(job);
  });

  it('do not open under another key, naming MAIL_SEALING_KEY', () => {
    const sealed = jobSeal(key).seal(job);
    expect(() => jobSeal(randomBytes(32)).open(sealed)).toThrow(UnsealableJobError);
    expect(() => jobSeal(randomBytes(32)).open(sealed)).toThrow(/MAIL_SEALING_KEY differs/);
  });

  it('sealed before a key rotation still open under the ring that keeps the old key, and not once it is gone', () => {
    const newKey = randomBytes(32);
    const before = jobSeal(key).seal(job);
    const after = jobSeal(KeyRing.of(newKey, [key])).seal(job);
    const mailer = jobSeal(KeyRing.of(newKey, [key]));
    expect(mailer.open(before)).toEqual(job);
    expect(mailer.open(after)).toEqual(job);
    expect(jobSeal(newKey).open(after)).toEqual(job);
    expect(() => jobSeal(newKey).open(before)).toThrow(/MAIL_SEALING_KEY differs/);
  });

  it('do not open when moved to another delivery id or altered', () => {
    const sealed = jobSeal(key).seal(job);
    expect(() => jobSeal(key).open({ ...sealed, deliveryId: 'delivery-2' })).toThrow(/does not open/);
    const bytes = Buffer.from(sealed.sealed, 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    expect(() => jobSeal(key).open({ ...sealed, sealed: bytes.toString('base64url') })).toThrow(/does not open/);
  });

  it('carry a creator notification the same way, opening to a notification', () => {
    const notification: NotificationJob = {
      version: 1,
      kind: 'notification',
      deliveryId: 'delivery-3',
      to: 'carol@example.com',
      event: 'burned',
      shortkey: 'abc123',
      at: 1_900_000_000,
    };
    const sealed = jobSeal(key).seal(notification);
    expect(JSON.stringify(sealed)).not.toContain('carol');
    const opened = jobSeal(key).open(sealed);
    expect(opened).toEqual(notification);
    expect(isNotification(opened)).toBe(true);
    expect(isNotification(job)).toBe(false);
  });

  it('carry a recipient code and a secret request the same way, each opening to its kind', () => {
    const code: RecipientCodeJob = {
      version: 1,
      kind: 'recipient-code',
      deliveryId: 'delivery-4',
      to: 'dana@example.com',
      sender: 'alice',
      code: '123456',
      expiresAt: 1_900_000_000,
    };
    const ask: SecretRequestJob = {
      version: 1,
      kind: 'secret-request',
      deliveryId: 'delivery-5',
      to: 'pat@example.com',
      requester: 'alice',
      label: 'db password',
      link: 'https://hush.example/request/abc',
      expiresAt: 1_900_000_000,
    };
    for (const sealed of [jobSeal(key).seal(code), jobSeal(key).seal(ask)]) expect(JSON.stringify(sealed)).not.toMatch(/dana|pat@|123456|request\/abc/);
    const [openedCode, openedAsk] = [jobSeal(key).open(jobSeal(key).seal(code)), jobSeal(key).open(jobSeal(key).seal(ask))];
    expect([openedCode, openedAsk]).toEqual([code, ask]);
    expect([isRecipientCode(openedCode), isSecretRequest(openedAsk), isRecipientCode(openedAsk)]).toEqual([true, true, false]);
    expect([mailJobName(code), mailJobName(ask), mailJobName(job)]).toEqual(['recipient-code', 'secret-request', 'secret-link']);
  });

  it('open a job sealed before the queue was renamed (the seal binds its first name, which stays)', () => {
    const sealedBefore = {
      version: 2,
      deliveryId: job.deliveryId,
      sealed: seal(deriveKey(key, 'hush:mail-job:seal:v1'), JSON.stringify(job), `hush-secret-link:${job.deliveryId}`).toString('base64url'),
    };
    expect(jobSeal(key).open(sealedBefore)).toEqual(job);
  });

  it('refuse an unsealed job as an invalid payload', () => {
    expect(() => jobSeal(key).open(job)).toThrow('invalid job payload: not a sealed mail job');
    expect(() => jobSeal(key).open('x')).toThrow(UnsealableJobError);
  });
});

describe('sealed identity account jobs', () => {
  const key = randomBytes(32);
  const account: AccountLinkJob = {
    version: 1,
    kind: 'reset-password',
    deliveryId: 'delivery-4',
    to: 'dave@example.com',
    username: 'dave',
    link: 'https://id.example/auth/realms/public/login-actions/reset/xyz',
    expiresAt: 1_900_000_000,
  };

  it('name their producer in clear, so the outcome goes to its status queue, and open to the same job', () => {
    const sealed = jobSeal(key).seal(account, 'identity');
    expect(sealed.from).toBe('identity');
    expect(producerOf(sealed)).toBe('identity');
    expect(producerOf(jobSeal(key).seal(job))).toBe('secrets');
    for (const clear of ['dave', 'xyz']) expect(JSON.stringify(sealed)).not.toContain(clear);
    const opened = jobSeal(key).open(sealed);
    expect(opened).toEqual(account);
    expect(isAccountLink(opened)).toBe(true);
    expect(isAccountLink(job)).toBe(false);
  });

  it('do not open when moved to another producer', () => {
    const sealed = jobSeal(key).seal(account, 'identity');
    const { from: _from, ...moved } = sealed;
    expect(() => jobSeal(key).open(moved)).toThrow(/does not open/);
  });
});
