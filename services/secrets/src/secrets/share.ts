import { planOf } from '../accounts/plans.js';
import type { Principal } from '../auth/principal.js';
import { SecretTooLongError } from '../errors.js';
import type { SecretsDeps } from './deps.js';
import { generateValue } from './generate-value.js';
import { hashKey, newKey } from './keys.js';
import { characterCount, type GenerateInput, type ShareInput } from './params.js';
import { presentCreated, type SecretResponse } from './presenter.js';
import { randomUUID } from 'node:crypto';
import { obfuscateEmail, type SecretLinkJob } from '@hush/queue';

/**
 * share (spec 4.2): check the plan's limit, then one INSERT. With a recipient, the same
 * statement writes the e-mail request to the outbox (spec 4.2 rule 2: the link, never the value).
 * The input is already parsed (params.ts: `secretsInputs(...).share`).
 */
export async function shareSecret(deps: SecretsDeps, principal: Principal, input: ShareInput): Promise<SecretResponse> {
  const { secret: value, ...options } = input;
  const plan = planOf(principal.plan ?? (await deps.accounts.planOf(principal.custid)), deps.settings.defaultPlan);
  const length = characterCount(value);
  if (length > plan.maxSecretLength) throw new SecretTooLongError(length, plan.maxSecretLength, plan.name);
  const created = await store(deps, principal, value, options);
  deps.events.created('share');
  return created;
}

/** generate: like share, with a value we make (returned once, stored only encrypted). */
export async function generateSecret(deps: SecretsDeps, principal: Principal, input: GenerateInput): Promise<SecretResponse> {
  const { length, ...options } = input;
  const value = generateValue(length);
  const created = await store(deps, principal, value, options);
  deps.events.created('generate');
  return { ...created, value };
}

type Options = Omit<ShareInput, 'secret'>;

async function store(deps: SecretsDeps, principal: Principal, value: string, { ttl, passphrase, recipient }: Options): Promise<SecretResponse> {
  const secretKey = newKey();
  const metadataKey = newKey();
  const secretHash = hashKey(secretKey);
  const metadataHash = hashKey(metadataKey);
  const passphraseHash = passphrase === undefined ? null : await deps.passphrases.hash(passphrase);
  const recipientObfuscated = recipient === undefined ? null : obfuscateEmail(recipient);
  const outbox = recipient === undefined ? null : outboxEntry(deps, principal, recipient, secretKey, ttl, passphraseHash !== null);
  const { createdAt } = await deps.secrets.insert({
    metadataHash,
    metadataShortkey: metadataKey.slice(0, 6),
    secretHash,
    custid: principal.custid,
    ttl,
    passphraseHash,
    recipientObfuscated,
    outbox,
    secretKeySealed: deps.crypto.sealSecretKey(metadataKey, metadataHash, secretKey),
    ciphertext: deps.crypto.sealValue(secretKey, secretHash, passphrase, value),
  });
  if (outbox) deps.outboxWritten();
  return presentCreated({
    custid: principal.custid,
    metadataKey,
    secretKey,
    ttl,
    recipient: recipientObfuscated,
    createdAt,
    passphraseRequired: passphraseHash !== null,
  });
}

/** The e-mail job, sealed for the outbox: the address and the link, never the value or passphrase. */
function outboxEntry(deps: SecretsDeps, principal: Principal, to: string, secretKey: string, ttl: number, passphraseRequired: boolean) {
  const id = randomUUID();
  const job: SecretLinkJob = {
    version: 1,
    deliveryId: id,
    to,
    sender: principal.custid,
    link: `${deps.settings.baseUrl}/secret/${secretKey}`,
    passphraseRequired,
    expiresAt: Math.floor(Date.now() / 1000) + ttl,
  };
  return { id, payloadSealed: deps.crypto.sealOutbox(id, JSON.stringify(job)) };
}
