import { PassphraseIncorrectError, PassphraseRequiredError, SecretForAnotherAccountError, UnknownSecretError } from '../errors.js';
import type { SecretsDeps } from './deps.js';
import { hashKey, isKey } from './keys.js';
import type { RevealInput } from './params.js';

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
 * A secret bound to one account (the answer to its request) is read only by `reader`, that
 * account, and the read is recorded on its receipt.
 */
export async function revealSecret(
  deps: Pick<SecretsDeps, 'secrets' | 'crypto' | 'passphrases' | 'settings' | 'events'>,
  secretKey: string,
  { passphrase }: RevealInput,
  reader?: string,
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
 * Checks a passphrase of a live secret that has one (reveal, and burn in the Onetime Secret
 * dialect). An attempt is reserved first (an UPDATE that refuses beyond PASSPHRASE_MAX_ATTEMPTS,
 * so parallel guesses cannot exceed the limit), bcrypt runs in a worker thread, and the attempt
 * that uses up the limit destroys the secret.
 */
export async function checkPassphrase(deps: Pick<SecretsDeps, 'secrets' | 'passphrases' | 'settings'>, secretHash: Buffer, passphrase: string): Promise<void> {
  const max = deps.settings.maxPassphraseAttempts;
  const attempt = await deps.secrets.reserveAttempt(secretHash, max);
  if (!attempt) throw new UnknownSecretError();
  if (!(await deps.passphrases.verify(passphrase, attempt.passphraseHash))) {
    const left = max - attempt.attempts;
    if (left <= 0) await deps.secrets.destroy(secretHash);
    throw new PassphraseIncorrectError(left);
  }
}
