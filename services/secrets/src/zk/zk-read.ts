import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBytes } from '@hush/common';
import { obfuscateEmail } from '@hush/queue';
import { NotZeroKnowledgeError, PassphraseIncorrectError, PassphraseRequiredError, SecretForAnotherAccountError, UnknownSecretError, WrongKeyError } from '../errors.js';
import { hashKey, isKey } from '../secrets/keys.js';
import { establishRecipient, type Reader } from '../secrets/reveal.js';
import type { LiveZkSecret } from '../secrets/secrets.repository.js';
import type { ZkDeps } from './deps.js';
import type { ZkReadInput } from './zk.params.js';

/**
 * Reading a zero-knowledge secret (docs/zero-knowledge.md). Rules, in this order:
 * 1. the proof of the link's key must match the secret's key verifier (SHA-256, compared in
 *    constant time): a wrong or missing key is a 403 `wrong_key` and changes nothing, so a link
 *    without its fragment cannot even consume the secret;
 * 2. a secret for one account (the answer to its request) is read by that account only, a
 *    recipient-only one by its recipient only (their refused openings counted as for any);
 * 3. with a passphrase, an attempt is reserved, then the passphrase proof compared: wrong ones
 *    are counted, and the PASSPHRASE_MAX_ATTEMPTS-th destroys the secret, though this service
 *    never sees the passphrase;
 * 4. then the one statement that claims it (of concurrent readers, one gets it) and hands its
 *    file, if any, to a fresh download token.
 * A read without a passphrase proof first tries the batched claim of secrets that ask for nothing
 * but the key (one statement for the reads of an event-loop turn, bound to the proof's digest);
 * when it claims nothing, the rules above run and say why.
 */

/** A live zero-knowledge secret as a reader's client needs to know it before the read. */
export interface ZkSecretInfo {
  secretKey: string;
  passphraseRequired: boolean;
  /** The recipient's address, obfuscated: only for a recipient-only secret. */
  recipient: string | null;
  /** The account that alone can read it (the answer to its request); null: the link's holder. */
  reader: string | null;
  /** The key wrapped for a requester's public key (an answer to a zero-knowledge request). */
  wrappedKey: Buffer | null;
  fileBytes: number | null;
  expiresAt: Date;
}

export interface ZkRead {
  secretKey: string;
  envelope: Buffer;
  /** The file's download token (the only copy; its hash is stored), its size and how long it may be used. */
  file: { token: string; bytes: number; seconds: number } | null;
}

async function live(deps: Pick<ZkDeps, 'secrets'>, secretKey: string): Promise<{ secretHash: Buffer; secret: LiveZkSecret }> {
  if (!isKey(secretKey)) throw new UnknownSecretError();
  const secretHash = hashKey(secretKey);
  const secret = await deps.secrets.peekZk(secretHash);
  if (secret) return { secretHash, secret };
  // Encrypted here: the classic read takes it (and this one must not).
  throw (await deps.secrets.peek(secretHash)) ? new NotZeroKnowledgeError() : new UnknownSecretError();
}

/** What a live zero-knowledge secret asks of its reader; nothing changes. */
export async function zkSecretInfo(deps: Pick<ZkDeps, 'secrets' | 'crypto'>, secretKey: string): Promise<ZkSecretInfo> {
  const { secretHash, secret } = await live(deps, secretKey);
  return {
    secretKey,
    passphraseRequired: secret.passphraseVerifier !== null,
    recipient: secret.recipientSealed === null ? null : obfuscateEmail(deps.crypto.openRecipient(secretKey, secretHash, secret.recipientSealed)),
    reader: secret.reader,
    wrappedKey: secret.wrappedKey,
    fileBytes: secret.fileBytes,
    expiresAt: secret.expiresAt,
  };
}

/** Whether `proof` hashes to `verifier`, in constant time. */
function proves(proof: Buffer, verifier: Buffer): boolean {
  const digest = createHash('sha256').update(proof).digest();
  return digest.length === verifier.length && timingSafeEqual(digest, verifier);
}

export async function readZk(
  deps: Pick<ZkDeps, 'secrets' | 'codes' | 'crypto' | 'settings' | 'events' | 'zk'>,
  secretKey: string,
  input: ZkReadInput,
  who: Reader = {},
): Promise<ZkRead> {
  const token = randomBytes(32).toString('base64url');
  const seconds = deps.zk.downloadSeconds;
  if (input.passphrase_proof === undefined && isKey(secretKey)) {
    const fast = await deps.secrets.claimZkKeyOnly(hashKey(secretKey), createHash('sha256').update(input.key_proof).digest(), {
      downloadHash: downloadHashOf(token),
      downloadSeconds: seconds,
    });
    if (fast) return opened(deps, secretKey, hashKey(secretKey), fast, token, seconds);
  }

  const { secretHash, secret } = await live(deps, secretKey);
  if (!proves(input.key_proof, secret.keyVerifier)) throw new WrongKeyError();

  let receivedBy: string | null = null;
  if (secret.recipientSealed !== null) receivedBy = await establishRecipient(deps, secretKey, secretHash, secret.recipientSealed, who);
  else if (secret.reader !== null) {
    if (who.custid !== secret.reader) throw new SecretForAnotherAccountError();
    receivedBy = secret.reader;
  }

  if (secret.passphraseVerifier !== null) {
    if (input.passphrase_proof === undefined) throw new PassphraseRequiredError();
    await checkPassphraseProof(deps, secretHash, input.passphrase_proof);
  }

  const claimed = await deps.secrets.claimZk(secretHash, secret.keyVerifier, {
    withoutPassphrase: secret.passphraseVerifier === null,
    receivedBy,
    downloadHash: downloadHashOf(token),
    downloadSeconds: seconds,
  });
  if (!claimed) throw new UnknownSecretError();
  return opened(deps, secretKey, secretHash, claimed, token, seconds);
}

function opened(
  deps: Pick<ZkDeps, 'crypto' | 'events'>,
  secretKey: string,
  secretHash: Buffer,
  claimed: { ciphertext: Buffer; fileBytes: number | null },
  token: string,
  seconds: number,
): ZkRead {
  deps.events.read();
  const envelope = Buffer.from(deps.crypto.openValue(secretKey, secretHash, undefined, claimed.ciphertext), 'base64url');
  return { secretKey, envelope, file: claimed.fileBytes === null ? null : { token, bytes: claimed.fileBytes, seconds } };
}

/** A download token is kept as its SHA-256 (256 random bits: nothing to guess offline). */
export const downloadHashOf = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * A passphrase proof: the attempt is reserved first (so parallel guesses cannot exceed the
 * limit), then compared; the attempt that uses up PASSPHRASE_MAX_ATTEMPTS destroys the secret.
 */
async function checkPassphraseProof(deps: Pick<ZkDeps, 'secrets' | 'settings'>, secretHash: Buffer, proof: Buffer): Promise<void> {
  const max = deps.settings.maxPassphraseAttempts;
  const attempt = await deps.secrets.reserveZkAttempt(secretHash, max);
  if (!attempt) throw new UnknownSecretError();
  if (!proves(proof, attempt.passphraseVerifier)) {
    const left = max - attempt.attempts;
    if (left <= 0) await deps.secrets.destroy(secretHash);
    throw new PassphraseIncorrectError(left);
  }
}
