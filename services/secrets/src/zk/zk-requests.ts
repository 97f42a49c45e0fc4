import { EnvelopeTooLongError, InvalidParameterError, PlainRequestError, UnknownRequestError } from '../errors.js';
import { loadOpen, planOfOwner } from '../secrets/requests.js';
import { prepareSecret } from '../secrets/share.js';
import type { ZkDeps } from './deps.js';
import { envelopeLimit } from './zk-share.js';
import type { ZkAnswerInput } from './zk.params.js';

/**
 * Answers a zero-knowledge request (docs/zero-knowledge.md): the sender's client encrypted the
 * secret with a fresh key and wrapped that key for the requester's public key, so only the
 * requester's opening key (which never reaches this service) can read it. The secret is stored
 * as any answer: the requester's own, read with its account's credentials and the proof of the
 * key, in the one statement that closes the request.
 */
export async function answerZkRequest(
  deps: Pick<ZkDeps, 'requests' | 'secrets' | 'accounts' | 'crypto' | 'passphrases' | 'settings' | 'events'>,
  requestKey: string,
  input: ZkAnswerInput,
): Promise<{ requester: string; label: string }> {
  const r = await loadOpen(deps, requestKey);
  if (r.publicKey === null) throw new PlainRequestError();
  const protectedByPassphrase = input.passphrase_verifier !== undefined;
  if (r.passphrasePolicy === 'required' && !protectedByPassphrase) throw new InvalidParameterError('This request asks for a passphrase');
  if (r.passphrasePolicy === 'none' && protectedByPassphrase) throw new InvalidParameterError('This request takes no passphrase');
  const plan = await planOfOwner(deps, r.custid);
  const limit = envelopeLimit(plan.maxSecretLength);
  if (input.envelope.length > limit) throw new EnvelopeTooLongError(input.envelope.length, limit, plan.name);
  const zk = { keyVerifier: input.key_verifier, passphraseVerifier: input.passphrase_verifier ?? null, wrappedKey: input.wrapped_key, fileBytes: null };
  const { row } = await prepareSecret(deps, { custid: r.custid, anonymous: false }, input.envelope.toString('base64url'), { ttl: r.secretTtl }, 'new', zk);
  const stored = await deps.secrets.insertAnswer(r.requestHash, { ...row, readerCustid: r.custid, requestLabel: r.label });
  if (!stored) throw new UnknownRequestError();
  deps.events.created('share');
  return { requester: r.custid, label: r.label };
}
