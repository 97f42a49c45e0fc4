import { createHash, timingSafeEqual } from 'node:crypto';
import { KeyProofRequiredError, PassphraseIncorrectError, PassphraseRequiredError, SecretForAnotherAccountError, SecretForRecipientError, UnknownSecretError } from '../errors.js';
import type { SecretsDeps } from './deps.js';
import { hashKey, isKey } from './keys.js';
import type { RevealInput } from '../http/secrets-params.js';
import { checkRecipientCode } from './recipient-code.js';
import type { LiveSecret } from './secrets.repository.js';

/** Who asks to read a secret, as far as the caller knows. */
export interface Reader {
  /** The account (the signed-in person, or the token's). */
  custid?: string | undefined;
  /** Its address, when identity says it is verified. */
  email?: string | undefined;
  /** A one-time code typed by a recipient without an account (recipient-only secrets). */
  code?: string | undefined;
}

/** What a receipt says of a recipient who proved the address with a one-time code. */
export const VERIFIED_ADDRESS = 'verified address';
/** A creator hears of refused openings of one secret at most this often. */
export const REFUSED_NOTICE_INTERVAL_SECONDS = 900;

/** A secret, read: its value is not stored any more. The dialect presents it (presenter.ts). */
export interface RevealedSecret {
  secretKey: string;
  value: string;
}

/**
 * Retrieve a secret (docs/api.md): the value is returned once.
 *
 * Without a passphrase the read is one statement (DELETE ... RETURNING). With one, an attempt is
 * first reserved (see `checkPassphrase`), and only a correct passphrase goes on to the same
 * one-statement claim. Unknown, read, burned and expired keys are one indistinguishable 404.
 * A secret bound to one account (the answer to its request) is read only by that account, and a
 * recipient-only secret only by its recipient (revealForRecipient); the reader is recorded on the
 * receipt.
 */
export async function revealSecret(
  deps: Pick<SecretsDeps, 'secrets' | 'codes' | 'crypto' | 'passphrases' | 'settings' | 'events'>,
  secretKey: string,
  { passphrase }: RevealInput,
  who: Reader = {},
): Promise<RevealedSecret> {
  if (!isKey(secretKey)) throw new UnknownSecretError();
  const secretHash = hashKey(secretKey);

  // The common case first, in one statement: a secret for whoever holds the link, without passphrase.
  const plain = await deps.secrets.claim(secretHash, true);
  if (plain) {
    deps.events.read();
    return { secretKey, value: deps.crypto.openValue(secretKey, secretHash, undefined, plain) };
  }

  const live = await deps.secrets.peek(secretHash);
  if (!live) throw new UnknownSecretError();
  // Encrypted by its creator's client: only the proof of the link's key reads it (src/zk); it stays.
  if (live.zeroKnowledge) throw new KeyProofRequiredError();
  if (live.recipientSealed !== null) return revealForRecipient(deps, secretKey, secretHash, live.recipientSealed, live, passphrase, who);
  const reader = who.custid;
  // A secret for one account: anyone else learns only that, and it stays (its reader never changes,
  // so checking before the claim cannot race with it).
  if (live.reader !== null && live.reader !== reader) throw new SecretForAnotherAccountError();
  const claim = (withoutPassphrase: boolean) =>
    live.reader !== null ? deps.secrets.claimAsReader(secretHash, live.reader, withoutPassphrase) : deps.secrets.claim(secretHash, withoutPassphrase);

  if (!live.passphraseRequired) {
    const sealed = live.reader !== null ? await claim(true) : undefined;
    if (!sealed) throw new UnknownSecretError();
    deps.events.read();
    return { secretKey, value: deps.crypto.openValue(secretKey, secretHash, undefined, sealed) };
  }
  if (passphrase === undefined) throw new PassphraseRequiredError();

  await checkPassphrase(deps, secretHash, passphrase);
  const sealed = await claim(false);
  if (!sealed) throw new UnknownSecretError();
  deps.events.read();
  return { secretKey, value: deps.crypto.openValue(secretKey, secretHash, passphrase, sealed) };
}

/**
 * A recipient-only secret: the recipient is established first (a verified address equal to the
 * secret's, or a correct one-time code sent to it), then the passphrase if any, then the one
 * statement that claims it. Anyone else gets 403 and the secret stays; their attempt is counted
 * on the receipt and, rate-limited, reported to the creator.
 */
async function revealForRecipient(
  deps: Pick<SecretsDeps, 'secrets' | 'codes' | 'crypto' | 'passphrases' | 'settings' | 'events'>,
  secretKey: string,
  secretHash: Buffer,
  sealed: Buffer,
  live: LiveSecret,
  passphrase: string | undefined,
  who: Reader,
): Promise<RevealedSecret> {
  const receivedBy = await establishRecipient(deps, secretKey, secretHash, sealed, who);
  if (live.passphraseRequired) {
    if (passphrase === undefined) throw new PassphraseRequiredError();
    await checkPassphrase(deps, secretHash, passphrase);
  }
  const ciphertext = await deps.secrets.claimAsRecipient(secretHash, receivedBy, !live.passphraseRequired);
  if (!ciphertext) throw new UnknownSecretError();
  deps.events.read();
  return { secretKey, value: deps.crypto.openValue(secretKey, secretHash, live.passphraseRequired ? passphrase : undefined, ciphertext) };
}

/**
 * Who reads a recipient-only secret, once shown to be its recipient: the account whose verified
 * address is the secret's, or `verified address` after a correct one-time code. Anyone else is a
 * refused opening (counted on the receipt, told to the creator) and gets SecretForRecipientError.
 */
export async function establishRecipient(
  deps: Pick<SecretsDeps, 'secrets' | 'codes' | 'crypto'>,
  secretKey: string,
  secretHash: Buffer,
  sealed: Buffer,
  who: Reader,
): Promise<string> {
  const address = deps.crypto.openRecipient(secretKey, secretHash, sealed);
  if (who.email !== undefined && sameAddress(who.email, address)) return who.custid ?? VERIFIED_ADDRESS;
  if (who.code !== undefined) {
    await checkRecipientCode(deps, secretHash, who.code);
    return VERIFIED_ADDRESS;
  }
  await deps.secrets.refused(secretHash, REFUSED_NOTICE_INTERVAL_SECONDS);
  throw new SecretForRecipientError();
}

/** Addresses compare without regard to case (as mail providers do), in constant time. */
export function sameAddress(a: string, b: string): boolean {
  const digest = (v: string) => createHash('sha256').update(v.trim().toLowerCase()).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * Checks a passphrase of a live secret that has one (reveal, and burn in the Onetime Secret
 * dialect). A place in the bcrypt pool is taken first (a full pool answers 503 and spends no
 * attempt), then an attempt is reserved (an UPDATE that refuses beyond PASSPHRASE_MAX_ATTEMPTS,
 * so parallel guesses cannot exceed the limit), bcrypt runs in a worker thread, and the attempt
 * that uses up the limit destroys the secret.
 */
export async function checkPassphrase(deps: Pick<SecretsDeps, 'secrets' | 'passphrases' | 'settings'>, secretHash: Buffer, passphrase: string): Promise<void> {
  const max = deps.settings.maxPassphraseAttempts;
  await deps.passphrases.checking(async (verify) => {
    const attempt = await deps.secrets.reserveAttempt(secretHash, max);
    if (!attempt) throw new UnknownSecretError();
    if (!(await verify(passphrase, attempt.passphraseHash))) {
      const left = max - attempt.attempts;
      if (left <= 0) await deps.secrets.destroy(secretHash);
      throw new PassphraseIncorrectError(left);
    }
  });
}
