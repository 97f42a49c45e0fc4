import { randomUUID } from 'node:crypto';
import { obfuscateEmail, type SecretRequestJob } from '@hush/queue';
import { planOf } from '../accounts/plans.js';
import type { Principal } from '../auth/principal.js';
import { InvalidParameterError, SecretTooLongError, UnknownRequestError, ZeroKnowledgeRequestError } from '../errors.js';
import type { SecretsDeps } from './deps.js';
import { hashKey, isKey, newKey } from './keys.js';
import { characterCount, type AnswerRequestInput, type CreateRequestInput, type PassphrasePolicy } from '../http/secrets-params.js';
import type { RequestRecord } from './requests.repository.js';
import { prepareSecret } from './share.js';

/**
 * Secret requests ("send me your secret"): an account makes a link with which anyone may hand it
 * one secret, once. The request key in the link is a capability like a secret key (stored as its
 * hash; sealed for the owner so their list can show the link again). The answer is stored as any
 * secret of the owner's (encrypted as share does, listed in `recent` with its receipt), bound to
 * the owner's account: only that account can read it (reveal.ts). The address of the person asked
 * is kept sealed, and gets the request link by e-mail (the outbox row is written with the request).
 */

/** A request with the key its owner may see (null when it could not be opened for this account). */
export interface RequestView {
  record: RequestRecord;
  requestKey: string | null;
}

/** What the page behind a request link shows the person asked. */
export interface OpenRequest {
  label: string;
  requester: string;
  passphrasePolicy: PassphrasePolicy;
  maxSecretLength: number;
  expiresAt: Date;
  /** A zero-knowledge request: the key the answer's key is wrapped for (base64url); null otherwise. */
  publicKey: string | null;
}

const LIST_LIMIT = 200;

export async function createRequest(
  deps: Pick<SecretsDeps, 'requests' | 'crypto' | 'settings' | 'outboxWritten'>,
  principal: Principal,
  input: CreateRequestInput,
): Promise<RequestView> {
  const id = randomUUID();
  const requestKey = newKey();
  const requestHash = hashKey(requestKey);
  const outbox = input.recipient === undefined ? null : requestEmail(deps, principal.custid, input.recipient, input, requestKey);
  const record = await deps.requests.insert({
    id,
    requestHash,
    custid: principal.custid,
    label: input.label,
    passphrasePolicy: input.passphrase_policy,
    secretTtl: input.secret_ttl,
    ttl: input.ttl,
    requestKeySealed: deps.crypto.sealRequestKey(principal.custid, requestHash, requestKey),
    recipientObfuscated: input.recipient === undefined ? null : obfuscateEmail(input.recipient),
    recipientSealed: input.recipient === undefined ? null : deps.crypto.sealRequestRecipient(id, input.recipient),
    outbox,
    publicKey: input.public_key ?? null,
  });
  if (outbox) deps.outboxWritten();
  return { record, requestKey };
}

/** The e-mail to the person asked, sealed for the outbox: the link, the requester and the label. */
function requestEmail(deps: Pick<SecretsDeps, 'crypto' | 'settings'>, requester: string, to: string, input: CreateRequestInput, requestKey: string) {
  const id = randomUUID();
  const job: SecretRequestJob = {
    version: 1,
    kind: 'secret-request',
    deliveryId: id,
    to,
    requester,
    label: input.label,
    link: `${deps.settings.baseUrl}/request/${requestKey}`,
    expiresAt: Math.floor(Date.now() / 1000) + input.ttl,
  };
  return { id, payloadSealed: deps.crypto.sealOutbox(id, JSON.stringify(job)) };
}

export async function listRequests(deps: Pick<SecretsDeps, 'requests' | 'crypto'>, principal: Principal): Promise<RequestView[]> {
  const records = await deps.requests.list(principal.custid, LIST_LIMIT);
  return records.map((record) => ({ record, requestKey: deps.crypto.openRequestKey(principal.custid, record.requestHash, record.requestKeySealed) }));
}

/** Closes one of the caller's open requests; 404 for anything else (not its own, answered, expired). */
export async function cancelRequest(deps: Pick<SecretsDeps, 'requests'>, principal: Principal, id: string): Promise<RequestView> {
  const record = /^[0-9a-f-]{36}$/i.test(id) ? await deps.requests.cancel(id, principal.custid) : undefined;
  if (!record) throw new UnknownRequestError();
  return { record, requestKey: null };
}

export async function loadOpen(deps: Pick<SecretsDeps, 'requests'>, requestKey: string): Promise<RequestRecord> {
  const record = isKey(requestKey) ? await deps.requests.findOpen(hashKey(requestKey)) : undefined;
  if (!record) throw new UnknownRequestError();
  return record;
}

export async function planOfOwner(deps: Pick<SecretsDeps, 'accounts' | 'settings'>, custid: string) {
  return planOf(await deps.accounts.planOf(custid), deps.settings.defaultPlan);
}

/** The open request behind a link (its owner's plan decides how long the secret may be). */
export async function openRequest(deps: Pick<SecretsDeps, 'requests' | 'accounts' | 'settings'>, requestKey: string): Promise<OpenRequest> {
  const r = await loadOpen(deps, requestKey);
  return {
    label: r.label,
    requester: r.custid,
    passphrasePolicy: r.passphrasePolicy,
    maxSecretLength: (await planOfOwner(deps, r.custid)).maxSecretLength,
    expiresAt: r.expiresAt,
    publicKey: r.publicKey?.toString('base64url') ?? null,
  };
}

/**
 * Answers a request: the secret is stored for the request's owner, readable by that account only,
 * in the one statement that closes the request (SecretsRepository.insertAnswer), so of two
 * concurrent answers exactly one is stored and the other gets the 404.
 */
export async function answerRequest(
  deps: Pick<SecretsDeps, 'requests' | 'secrets' | 'accounts' | 'crypto' | 'passphrases' | 'settings' | 'events'>,
  requestKey: string,
  input: AnswerRequestInput,
): Promise<{ requester: string; label: string }> {
  const r = await loadOpen(deps, requestKey);
  // The requester holds a key pair: only their sender's client may encrypt the answer (zk/).
  if (r.publicKey !== null) throw new ZeroKnowledgeRequestError();
  const { secret, passphrase } = input;
  if (r.passphrasePolicy === 'required' && passphrase === undefined) throw new InvalidParameterError('This request asks for a passphrase');
  if (r.passphrasePolicy === 'none' && passphrase !== undefined) throw new InvalidParameterError('This request takes no passphrase');
  const plan = await planOfOwner(deps, r.custid);
  const length = characterCount(secret);
  if (length > plan.maxSecretLength) throw new SecretTooLongError(length, plan.maxSecretLength, plan.name);
  const { row } = await prepareSecret(deps, { custid: r.custid, anonymous: false }, secret, { ttl: r.secretTtl, passphrase }, 'new');
  const stored = await deps.secrets.insertAnswer(r.requestHash, { ...row, readerCustid: r.custid, requestLabel: r.label });
  if (!stored) throw new UnknownRequestError();
  deps.events.created('share');
  return { requester: r.custid, label: r.label };
}
