import { PassphraseIncorrectError, PassphraseRequiredError, UnknownSecretError } from '../errors.js';
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
 */
export async function revealSecret(
  deps: Pick<SecretsDeps, 'secrets' | 'crypto' | 'passphrases' | 'settings' | 'events'>,
  secretKey: string,
  { passphrase }: RevealInput,
): Promise<RevealedSecret> {
  if (!isKey(secretKey)) throw new UnknownSecretError();
  const secretHash = hashKey(secretKey);

  const plain = await deps.secrets.claim(secretHash, true);
  if (plain) {
    deps.events.read();
    return { secretKey, value: deps.crypto.openValue(secretKey, secretHash, undefined, plain) };
  }

  if (passphrase === undefined) {
    if (await deps.secrets.needsPassphrase(secretHash)) throw new PassphraseRequiredError();
    throw new UnknownSecretError();
  }

  await checkPassphrase(deps, secretHash, passphrase);
  const sealed = await deps.secrets.claim(secretHash, false);
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
