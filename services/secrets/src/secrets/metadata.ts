import type { Principal } from '../auth/principal.js';
import { InvalidParameterError, UnknownSecretError } from '../errors.js';
import type { SecretsDeps } from './deps.js';
import { hashKey, isKey } from './keys.js';
import type { RecentInput } from './params.js';
import { presentMetadata, stateOf, type BurnResponse, type MetadataResponse, type RecentItem } from './presenter.js';
import type { MetadataRecord } from './secrets.repository.js';

/**
 * The metadata key is the capability, as in Onetime Secret: whoever holds it (the creator: the
 * key is handed out once, by share and generate, and never listed) sees the metadata and may
 * burn, through the API or the receipt page alike. An unknown or expired key gets the 404.
 */
async function load(deps: SecretsDeps, metadataKey: string): Promise<MetadataRecord> {
  const record = isKey(metadataKey) ? await deps.secrets.findMetadata(hashKey(metadataKey)) : undefined;
  if (!record) throw new UnknownSecretError();
  return record;
}

/** The secret key, unsealed with the metadata key, while the secret is unread. */
function secretKeyOf(deps: SecretsDeps, record: MetadataRecord, metadataKey: string): string | null {
  const state = stateOf(record);
  if ((state !== 'new' && state !== 'viewed') || !record.secretKeySealed) return null;
  return deps.crypto.openSecretKey(metadataKey, record.metadataHash, record.secretKeySealed);
}

/**
 * Show metadata. `markViewed` (POST, the spec's method) records that the creator looked, as
 * Onetime Secret does: the first view reports `new`, later ones `viewed`. GET has no side effect.
 */
export async function showMetadata(deps: SecretsDeps, metadataKey: string, markViewed: boolean): Promise<MetadataResponse> {
  const record = await load(deps, metadataKey);
  if (markViewed && stateOf(record) === 'new') await deps.secrets.markViewed(record.metadataHash);
  return presentMetadata(record, { metadataKey, secretKey: secretKeyOf(deps, record, metadataKey) });
}

/** Burn an unread secret (state table 3); read, burned or expired secrets give the 404. */
export async function burnSecret(deps: SecretsDeps, metadataKey: string): Promise<BurnResponse> {
  const record = isKey(metadataKey) ? await deps.secrets.burn(hashKey(metadataKey)) : undefined;
  if (!record) throw new UnknownSecretError();
  deps.events.burned();
  return { ...presentMetadata(record, { metadataKey, secretKey: null }), status: 'burned' };
}

/**
 * The account's metadata, newest first, `limit` (default 20, at most 100) per page; `before` is
 * the cursor of the next page (given in the Link and X-Next-Cursor headers). Keys are null: the
 * list must never hand out capabilities; `metadata_shortkey` tells the items apart.
 */
export async function recentMetadata(deps: SecretsDeps, principal: Principal, { limit, before }: RecentInput): Promise<{ items: RecentItem[]; next: string | null }> {
  const beforeId = before === undefined ? undefined : decodeCursor(before);

  const rows = await deps.secrets.recent(principal.custid, limit + 1, beforeId);
  const page = rows.slice(0, limit);
  const items = page.map((r) => ({ ...presentMetadata(r, { metadataKey: null, secretKey: null }), metadata_shortkey: r.metadataShortkey }));
  const last = page[page.length - 1];
  return { items, next: rows.length > limit && last ? encodeCursor(last.id) : null };
}

const encodeCursor = (id: number) => Buffer.from(`m${id}`).toString('base64url');
function decodeCursor(cursor: string): number {
  const match = /^m(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) throw new InvalidParameterError('before is not a cursor this service handed out');
  return Number(match[1]);
}
