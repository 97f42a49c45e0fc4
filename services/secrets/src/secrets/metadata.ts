import type { Principal } from '../auth/principal.js';
import { InvalidParameterError, PassphraseRequiredError, UnknownSecretError } from '../errors.js';
import type { SecretsDeps } from './deps.js';
import { hashKey, isKey } from './keys.js';
import type { RecentInput } from '../http/secrets-params.js';
import { stateOf } from './metadata-state.js';
import { checkPassphrase } from './reveal.js';
import type { MetadataRecord } from './secrets.repository.js';

/**
 * The metadata key is the capability, as in Onetime Secret: whoever holds it (the creator: the
 * key is handed out by share and generate, and listed only to its authenticated owner) sees the
 * metadata and may burn, through the API or the receipt page alike. An unknown or expired key
 * gets the 404. The use-cases return records; each API dialect presents them (http/dialect.ts).
 */

/** A metadata row with the keys the caller may see: `secretKey` only while the secret is unread. */
export interface MetadataView {
  record: MetadataRecord;
  metadataKey: string | null;
  secretKey: string | null;
}

async function load(deps: Pick<SecretsDeps, 'secrets'>, metadataKey: string): Promise<MetadataRecord> {
  const record = isKey(metadataKey) ? await deps.secrets.findMetadata(hashKey(metadataKey)) : undefined;
  if (!record) throw new UnknownSecretError();
  return record;
}

/** The secret key, unsealed with the metadata key, while the secret is unread. */
function secretKeyOf(deps: Pick<SecretsDeps, 'crypto'>, record: MetadataRecord, metadataKey: string): string | null {
  const state = stateOf(record);
  if ((state !== 'new' && state !== 'viewed') || !record.secretKeySealed) return null;
  return deps.crypto.openSecretKey(metadataKey, record.metadataHash, record.secretKeySealed);
}

/**
 * Show metadata. `markViewed` (the API, GET and POST alike) records that the creator looked, as
 * Onetime Secret does: the first view reports `new`, later ones `viewed`. The receipt page peeks
 * without it.
 */
export async function showMetadata(deps: Pick<SecretsDeps, 'secrets' | 'crypto'>, metadataKey: string, markViewed: boolean): Promise<MetadataView> {
  const record = await load(deps, metadataKey);
  if (markViewed && stateOf(record) === 'new') await deps.secrets.markViewed(record.metadataHash);
  return { record, metadataKey, secretKey: secretKeyOf(deps, record, metadataKey) };
}

export interface BurnOptions {
  /** Onetime Secret (current) checks the secret's passphrase on burn; the spec dialect does not. */
  checkPassphrase?: boolean;
  passphrase?: string | undefined;
}

/** The burned metadata, and the secret key it had (Onetime Secret's answer shows its first characters). */
export interface BurnedView extends MetadataView {
  burnedSecretKey: string | null;
}

/** Burn an unread secret; read, burned or expired secrets give the 404 (docs/api.md). */
export async function burnSecret(
  deps: Pick<SecretsDeps, 'secrets' | 'crypto' | 'passphrases' | 'settings' | 'events'>,
  metadataKey: string,
  options: BurnOptions = {},
): Promise<BurnedView> {
  const before = await load(deps, metadataKey);
  const secretKey = secretKeyOf(deps, before, metadataKey);
  if (options.checkPassphrase && before.passphraseRequired && secretKey !== null) {
    if (options.passphrase === undefined) throw new PassphraseRequiredError();
    await checkPassphrase(deps, hashKey(secretKey), options.passphrase);
  }
  const record = await deps.secrets.burn(before.metadataHash);
  if (!record) throw new UnknownSecretError();
  deps.events.burned();
  return { record, metadataKey, secretKey: null, burnedSecretKey: secretKey };
}

/**
 * The account's metadata, newest first, `limit` per page (RECENT_DEFAULT_LIMIT by default, so
 * clients that ignore `Link` still get a useful list); `before` is the cursor of the next page
 * (given in the Link and X-Next-Cursor headers). The authenticated owner gets each item's metadata
 * key (sealed for it at creation; null for rows older than that); secret keys are never listed.
 */
export async function recentMetadata(
  deps: Pick<SecretsDeps, 'secrets' | 'crypto'>,
  principal: Principal,
  { limit, before }: RecentInput,
): Promise<{ items: MetadataView[]; next: string | null }> {
  const beforeId = before === undefined ? undefined : decodeCursor(before);

  const rows = await deps.secrets.recent(principal.custid, limit + 1, beforeId);
  const page = rows.slice(0, limit);
  const items = page.map((record) => ({ record, metadataKey: ownerKeyOf(deps, principal, record), secretKey: null }));
  const last = page[page.length - 1];
  return { items, next: rows.length > limit && last ? encodeCursor(last.id) : null };
}

function ownerKeyOf(deps: Pick<SecretsDeps, 'crypto'>, principal: Principal, record: MetadataRecord): string | null {
  if (!record.metadataKeySealed) return null;
  return deps.crypto.openMetadataKey(principal.custid, record.metadataHash, record.metadataKeySealed);
}

const encodeCursor = (id: number) => Buffer.from(`m${id}`).toString('base64url');
function decodeCursor(cursor: string): number {
  const match = /^m(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) throw new InvalidParameterError('before is not a cursor this service handed out');
  return Number(match[1]);
}
