import { planOf, type Plan } from '../accounts/plans.js';
import { isAnonymous, type Principal } from '../auth/principal.js';
import { AnonymousRecipientError, HandoverLabelError, NotifyAddressRequiredError, RecipientOnlyWithoutRecipientError, SecretTooLongError, UnknownFileError } from '../errors.js';
import type { SecretsDeps } from './deps.js';
import { generateValue } from './generate-value.js';
import { hashKey, newKey } from './keys.js';
import { characterCount, type GenerateInput, type ShareInput } from '../http/secrets-params.js';
import { randomUUID } from 'node:crypto';
import { obfuscateEmail, type HandoverLabel, type SecretLinkJob } from '@hush/queue';
import { currentTraceparent } from '@hush/telemetry';
import { isValidAddress } from './recipient.js';
import type { NewSecret, NewZkSecret } from './secrets.repository.js';

/** What share and generate created, for the dialect's presenter (http/dialect.ts). */
export interface CreatedSecret {
  custid: string;
  metadataKey: string;
  secretKey: string;
  /** The requested (or defaulted) TTL in seconds. */
  ttl: number;
  /** Obfuscated address, or null. */
  recipient: string | null;
  /** Only the recipient can read it (recipient_only). */
  recipientOnly: boolean;
  createdAt: Date;
  passphraseRequired: boolean;
  shareDomain: string | null;
  /** generate only: the value, shown this once. */
  value?: string;
}

/** How the dialect wants a generated secret recorded (Onetime Secret classic shows it `viewed` at once). */
export interface GenerateOptions {
  markViewed?: boolean;
}

/**
 * share (docs/api.md): check the plan's limit, then one INSERT. With a recipient, the same
 * statement writes the e-mail request to the outbox: the link, never the value.
 * The input is already parsed (http/secrets-params.ts: `secretsInputs(...).share`).
 */
export async function shareSecret(
  deps: Pick<SecretsDeps, 'secrets' | 'accounts' | 'crypto' | 'passphrases' | 'settings' | 'outboxWritten' | 'events'>,
  principal: Principal,
  input: ShareInput,
): Promise<CreatedSecret> {
  const { secret: value, ...options } = input;
  const plan = await planFor(deps, principal);
  const length = characterCount(value);
  if (length > plan.maxSecretLength) throw new SecretTooLongError(length, plan.maxSecretLength, plan.name);
  const created = await storeSecret(deps, principal, value, options, 'new');
  deps.events.created('share');
  return created;
}

/** generate: like share, with a value we make (returned once, stored only encrypted). */
export async function generateSecret(
  deps: Pick<SecretsDeps, 'secrets' | 'crypto' | 'passphrases' | 'settings' | 'outboxWritten' | 'events'>,
  principal: Principal,
  input: GenerateInput,
  { markViewed = false }: GenerateOptions = {},
): Promise<CreatedSecret> {
  const { length, ...options } = input;
  const value = generateValue(length);
  const created = await storeSecret(deps, principal, value, options, markViewed ? 'viewed' : 'new');
  deps.events.created('generate');
  return { ...created, value };
}

/** The anonymous plan (ANONYMOUS_MAX_SECRET_LENGTH) for anonymous callers, else the account's. */
export async function planFor(deps: Pick<SecretsDeps, 'accounts' | 'settings'>, principal: Principal): Promise<Plan> {
  if (isAnonymous(principal)) return { name: 'anonymous', maxSecretLength: deps.settings.anonymousMaxSecretLength };
  return planOf(principal.plan ?? (await deps.accounts.planOf(principal.custid)), deps.settings.defaultPlan);
}

type Options = Omit<ShareInput, 'secret'>;

/**
 * Checks the options against the caller, prepares the rows and inserts them. A zero-knowledge
 * share (src/zk) brings its verifiers, and the upload it attaches in the same statement
 * (404 `unknown_file` when that upload is not the caller's, complete and free).
 */
export async function storeSecret(
  deps: Pick<SecretsDeps, 'secrets' | 'crypto' | 'passphrases' | 'settings' | 'outboxWritten'>,
  principal: Principal,
  value: string,
  options: Options,
  state: 'new' | 'viewed',
  zk?: { secret: NewZkSecret; file: string | undefined; keySealed?: string | undefined },
): Promise<CreatedSecret> {
  const anonymous = isAnonymous(principal);
  // Without an account nobody answers for the e-mail: an open relay otherwise.
  if (anonymous && (options.recipient !== undefined || options.notify !== undefined)) throw new AnonymousRecipientError();
  if (options.recipient_only === true && options.recipient === undefined) throw new RecipientOnlyWithoutRecipientError();
  const handover = handoverLabelOf(principal, options);
  const { row, created } = await prepareSecret(deps, { custid: principal.custid, anonymous }, value, options, state, zk?.secret ?? null, zk?.keySealed, handover);
  const file = zk?.file;
  const stored = file === undefined ? await deps.secrets.insert(row) : await deps.secrets.insertWithFile({ id: file, custid: principal.custid }, row);
  if (!stored) throw new UnknownFileError();
  if (row.outbox) deps.outboxWritten();
  return { ...created, createdAt: stored.createdAt };
}

/**
 * The rows of a new secret (keys, hashes, ciphertext, the owner's sealed metadata key, the outbox
 * entry for a recipient) and what its creation answers, before anything is written: share and
 * generate insert them as they are, an answer to a request with the request's closing.
 * A zero-knowledge secret (`zk`, src/zk) gives its client's envelope as `value` (sealed here too,
 * as any value) and its verifiers instead of a passphrase; its recipient is sent the link without
 * its key, which this service never has.
 */
export async function prepareSecret(
  deps: Pick<SecretsDeps, 'crypto' | 'passphrases' | 'settings'>,
  owner: { custid: string; anonymous: boolean },
  value: string,
  options: Options,
  state: 'new' | 'viewed',
  zk: NewZkSecret | null = null,
  keySealed?: string,
  handover?: HandoverLabel,
): Promise<{ row: NewSecret; created: Omit<CreatedSecret, 'createdAt'> }> {
  const { ttl, passphrase, recipient } = options;
  const recipientOnly = options.recipient_only === true && recipient !== undefined;
  // A recipient-only secret tells its creator of refused openings whenever there is an address to tell.
  const notifyTo = options.notify?.length
    ? notifyAddress(owner.custid, options.notify_email)
    : recipientOnly
      ? (options.notify_email ?? (isValidAddress(owner.custid) ? owner.custid : undefined))
      : undefined;
  const shareDomain = options.share_domain ?? null;
  const secretKey = newKey();
  const metadataKey = newKey();
  const secretHash = hashKey(secretKey);
  const metadataHash = hashKey(metadataKey);
  const passphraseHash = passphrase === undefined ? null : await deps.passphrases.hash(passphrase);
  const passphraseRequired = passphraseHash !== null || (zk?.passphraseVerifier ?? null) !== null;
  const recipientObfuscated = recipient === undefined ? null : obfuscateEmail(recipient);
  const outbox =
    recipient === undefined
      ? null
      : outboxEntry(deps, owner.custid, recipient, secretKey, ttl, { passphraseRequired, recipientOnly, zeroKnowledge: zk !== null, keySealed, handover, locale: options.locale });
  const row: NewSecret = {
    metadataHash,
    metadataShortkey: metadataKey.slice(0, 6),
    secretHash,
    custid: owner.custid,
    ttl,
    passphraseHash,
    recipientObfuscated,
    outbox,
    secretKeySealed: deps.crypto.sealSecretKey(metadataKey, metadataHash, secretKey),
    metadataKeySealed: owner.anonymous ? null : deps.crypto.sealMetadataKey(owner.custid, metadataHash, metadataKey),
    state,
    anonymous: owner.anonymous,
    shareDomain,
    ciphertext: deps.crypto.sealValue(secretKey, secretHash, passphrase, value),
    recipientSealed: recipientOnly ? deps.crypto.sealRecipient(secretKey, secretHash, recipient) : null,
    handoverSealed: handover === undefined ? null : deps.crypto.sealHandover(secretKey, secretHash, handover),
    notify:
      notifyTo === undefined
        ? null
        : {
            on: options.notify ?? [],
            sealed: deps.crypto.sealNotify(
              metadataHash,
              JSON.stringify({ to: notifyTo, shortkey: metadataKey.slice(0, 6), ...(options.locale !== undefined ? { locale: options.locale } : {}) }),
            ),
          },
    zk,
  };
  return {
    row,
    created: { custid: owner.custid, metadataKey, secretKey, ttl, recipient: recipientObfuscated, recipientOnly, passphraseRequired, shareDomain },
  };
}

/**
 * The e-mail job, sealed for the outbox: the address and the link, never the value or passphrase.
 * A zero-knowledge secret's link has no key: the e-mail says it comes from the sender apart, unless
 * the sender sealed it for the mailer (`keySealed`), which then completes the link.
 */
function outboxEntry(
  deps: Pick<SecretsDeps, 'crypto' | 'settings'>,
  sender: string,
  to: string,
  secretKey: string,
  ttl: number,
  o: {
    passphraseRequired: boolean;
    recipientOnly: boolean;
    zeroKnowledge: boolean;
    keySealed: string | undefined;
    handover: HandoverLabel | undefined;
    locale: string | undefined;
  },
) {
  const { passphraseRequired, recipientOnly } = o;
  const id = randomUUID();
  const job: SecretLinkJob = {
    version: 1,
    deliveryId: id,
    to,
    sender,
    link: `${deps.settings.baseUrl}/secret/${secretKey}`,
    passphraseRequired,
    ...(recipientOnly ? { recipientOnly } : {}),
    ...(o.keySealed !== undefined ? { keySealed: o.keySealed } : o.zeroKnowledge ? { keyApart: true } : {}),
    expiresAt: Math.floor(Date.now() / 1000) + ttl,
    ...(o.handover !== undefined ? { handover: o.handover } : {}),
    ...(o.locale !== undefined ? { locale: o.locale } : {}),
  };
  return { id, payloadSealed: deps.crypto.sealOutbox(id, JSON.stringify(job)), traceContext: currentTraceparent() };
}

/**
 * The label of a handed-over credential, from the share's `handover_*` options: only a service
 * client (a client-credentials token, such as identity's handover) may label a secret so, since
 * its e-mail then speaks in an administrator's name; a kind needs a name, and a name a kind.
 */
function handoverLabelOf(principal: Principal, options: Options): HandoverLabel | undefined {
  const { handover_kind: kind, handover_name: name, handover_id: id, handover_by: by } = options;
  if (kind === undefined && name === undefined && id === undefined && by === undefined) return undefined;
  if (principal.via !== 'client_token') throw new HandoverLabelError('handover labels are for service clients (client-credentials tokens)');
  if (kind === undefined || name === undefined) throw new HandoverLabelError('a handover label needs handover_kind and handover_name');
  return { kind, name, ...(id !== undefined ? { id } : {}), ...(by !== undefined ? { by } : {}) };
}

/** notify_email if given, else the account's id when it is an e-mail address (web sign-ins). */
function notifyAddress(custid: string, given: string | undefined): string {
  if (given !== undefined) return given;
  if (isValidAddress(custid)) return custid;
  throw new NotifyAddressRequiredError();
}
