import { isAnonymous, type Principal } from '../auth/principal.js';
import { AccountRequiredForFileError, EnvelopeTooLongError, LinkKeyNeedsMailerError, RecipientRequiredForLinkKeyError, UnknownFileError } from '../errors.js';
import { planFor, storeSecret, type CreatedSecret } from '../secrets/share.js';
import type { ZkDeps } from './deps.js';
import type { ZkShareInput } from './zk.params.js';

/**
 * An envelope holds the text (JSON-escaped: at worst 6 bytes a character), the file description,
 * the version, the nonce and the tag: a plan's characters fit in this many bytes.
 */
export const envelopeLimit = (characters: number): number => 6 * characters + 1024;

/**
 * The zero-knowledge share (docs/zero-knowledge.md): the client encrypted the secret with a key
 * this service never sees; what is stored is its envelope (sealed again here, as any value), the
 * verifiers a read must match, and optionally the file it uploaded. Everything else (ttl,
 * recipient, recipient_only, notifications, the receipt) is a share's.
 */
export async function shareZk(
  deps: Pick<ZkDeps, 'secrets' | 'accounts' | 'crypto' | 'passphrases' | 'settings' | 'outboxWritten' | 'events' | 'files' | 'zk'>,
  principal: Principal,
  input: ZkShareInput,
): Promise<CreatedSecret> {
  const { envelope, key_verifier, passphrase_verifier, file, link_key_sealed: keySealed, ...options } = input;
  if (keySealed !== undefined && options.recipient === undefined) throw new RecipientRequiredForLinkKeyError();
  // Only the mailer opens it: an e-mail sent from here (DELIVERY_MODE=inline) would lack the key.
  if (keySealed !== undefined && !deps.zk.mailerOpensLinkKeys) throw new LinkKeyNeedsMailerError();
  const plan = await planFor(deps, principal);
  const limit = envelopeLimit(plan.maxSecretLength);
  if (envelope.length > limit) throw new EnvelopeTooLongError(envelope.length, limit, plan.name);
  let fileBytes: number | null = null;
  if (file !== undefined) {
    if (isAnonymous(principal)) throw new AccountRequiredForFileError();
    fileBytes = (await deps.files.attachable(file, principal.custid)) ?? null;
    if (fileBytes === null) throw new UnknownFileError();
  }
  const secret = { keyVerifier: key_verifier, passphraseVerifier: passphrase_verifier ?? null, wrappedKey: null, fileBytes };
  const created = await storeSecret(deps, principal, envelope.toString('base64url'), { ...options, passphrase: undefined }, 'new', { secret, file, keySealed });
  deps.events.created('share');
  return created;
}
