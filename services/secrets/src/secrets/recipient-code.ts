import { randomInt, randomUUID } from 'node:crypto';
import { obfuscateEmail, type RecipientCodeJob } from '@hush/queue';
import { CodeUnavailableError, InvalidCodeError, UnknownSecretError } from '../errors.js';
import type { SecretsDeps } from './deps.js';
import { hashKey, isKey } from './keys.js';

/**
 * One-time codes for the recipient of a recipient-only secret who has no account: proof of
 * control of the address, sent to it by the mailer. Rules:
 * - six digits, valid CODE_TTL_SECONDS, stored only as an HMAC bound to the secret;
 * - CODE_MAX_ATTEMPTS guesses per code (reserved before the comparison, so parallel guesses
 *   cannot exceed it), then the code no longer works;
 * - at most CODE_MAX_SENDS codes per secret, one per CODE_RESEND_AFTER_SECONDS: at most
 *   30 guesses of a million per secret, and no mailbox flooded;
 * - single use: the read that the code allows deletes the secret, and its code with it.
 * Asking for a code consumes nothing.
 */
export const CODE_TTL_SECONDS = 600;
export const CODE_MAX_ATTEMPTS = 5;
export const CODE_MAX_SENDS = 6;
export const CODE_RESEND_AFTER_SECONDS = 30;
export const CODE_PATTERN = /^[0-9]{6}$/;

/** Sends a new code to the address the secret is for (in `locale`, the asking page's language); returns that address obfuscated. */
export async function sendRecipientCode(deps: Pick<SecretsDeps, 'secrets' | 'codes' | 'crypto' | 'outboxWritten'>, secretKey: string, locale?: string): Promise<{ to: string }> {
  if (!isKey(secretKey)) throw new UnknownSecretError();
  const secretHash = hashKey(secretKey);
  const live = await deps.secrets.peek(secretHash);
  if (!live?.recipientSealed) throw new UnknownSecretError();
  const to = deps.crypto.openRecipient(secretKey, secretHash, live.recipientSealed);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const deliveryId = randomUUID();
  const job: RecipientCodeJob = {
    version: 1,
    kind: 'recipient-code',
    deliveryId,
    to,
    sender: live.sender,
    code,
    expiresAt: Math.floor(Date.now() / 1000) + CODE_TTL_SECONDS,
    ...(locale !== undefined ? { locale } : {}),
  };
  const issued = await deps.codes.issue(
    secretHash,
    { hash: deps.crypto.codeHash(secretHash, code), ttlSeconds: CODE_TTL_SECONDS },
    { maxSends: CODE_MAX_SENDS, resendAfterSeconds: CODE_RESEND_AFTER_SECONDS },
    { id: deliveryId, payloadSealed: deps.crypto.sealOutbox(deliveryId, JSON.stringify(job)) },
  );
  if (!issued) throw new CodeUnavailableError();
  deps.outboxWritten();
  return { to: obfuscateEmail(to) };
}

/** Checks a code typed for the secret; throws InvalidCodeError (with the attempts left) otherwise. */
export async function checkRecipientCode(deps: Pick<SecretsDeps, 'codes' | 'crypto'>, secretHash: Buffer, code: string): Promise<void> {
  const attempt = await deps.codes.reserveAttempt(secretHash, CODE_MAX_ATTEMPTS);
  if (!attempt) throw new InvalidCodeError(0);
  if (!deps.crypto.codeMatches(secretHash, CODE_PATTERN.test(code) ? code : '', attempt.codeHash)) {
    // A spent code stays (attempts at the limit), so its sends count and time still limit new ones.
    throw new InvalidCodeError(CODE_MAX_ATTEMPTS - attempt.attempts);
  }
}
