import type { Principal } from '../../auth/principal.js';
import { UnknownSecretError } from '../../errors.js';
import type { SecretsDeps } from '../../secrets/deps.js';
import { recentMetadata } from '../../secrets/metadata.js';
import { presentMetadata, presentRecentItem, type RecentItem } from '../../secrets/presenter.js';

/**
 * "My secrets": the account's recent secrets, newest first, as GET /api/v1/private/recent lists
 * them (recentMetadata, presentRecentItem), plus an opaque reference per item for its burn button:
 * the metadata key's hash, checked against the account before anything is burned (rows made before
 * metadata keys were kept for their owner have no key to burn with). `before` is recent's cursor.
 */
export async function mySecrets(deps: SecretsDeps, principal: Principal, limit: number, before: string | undefined): Promise<{ items: MySecret[]; next: string | null }> {
  const page = await recentMetadata(deps, principal, { limit, before });
  return { items: page.items.map((view) => ({ ...presentRecentItem(view), ref: view.record.metadataHash.toString('base64url') })), next: page.next };
}

export type MySecret = RecentItem & { ref: string };

/** A reference: the stored hash of a metadata key in base64url, 32 bytes (a key of the plain form) or 34 (a key that names its hour). */
const REF = /^[A-Za-z0-9_-]{43}(?:[A-Za-z0-9_-]{3})?$/;

/** One of the account's own secrets by its reference; 404 for anything else. */
async function ownRecord(deps: SecretsDeps, principal: Principal, ref: string) {
  const hash = REF.test(ref) ? Buffer.from(ref, 'base64url') : undefined;
  const record = hash && (await deps.secrets.findMetadata(hash));
  if (!record || record.custid !== principal.custid) throw new UnknownSecretError();
  return record;
}

/** What the burn confirmation names: the secret's short key. */
export async function ownSecretShortkey(deps: SecretsDeps, principal: Principal, ref: string): Promise<string> {
  return (await ownRecord(deps, principal, ref)).metadataShortkey;
}

/** Burns one of the account's own unread secrets; 404 for anything else (not its own, already read...). */
export async function burnOwnSecret(deps: SecretsDeps, principal: Principal, ref: string) {
  const record = await ownRecord(deps, principal, ref);
  const burned = await deps.secrets.burn(record.metadataHash);
  if (!burned) throw new UnknownSecretError();
  deps.events.burned();
  return presentMetadata({ record: burned, metadataKey: null, secretKey: null });
}
