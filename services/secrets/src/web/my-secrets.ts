import type { Principal } from '../auth/principal.js';
import { UnknownSecretError } from '../errors.js';
import type { SecretsDeps } from '../secrets/deps.js';
import { presentMetadata, type RecentItem } from '../secrets/presenter.js';

/**
 * "My secrets": the account's recent secrets, newest first, `limit` per page, as GET
 * /api/v1/private/recent presents them (presentMetadata), plus an opaque reference per item for
 * its burn button. The list never holds a key (the metadata key exists only as its hash), so the
 * reference is that hash, checked against the account before anything is burned. `before` is the
 * id after which the next page starts (not a secret: it only orders this account's rows).
 */
export async function mySecrets(deps: SecretsDeps, principal: Principal, limit: number, before: number | undefined): Promise<{ items: MySecret[]; next: number | null }> {
  const rows = await deps.secrets.recent(principal.custid, limit + 1, before);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map((r) => ({ ...presentMetadata(r, { metadataKey: null, secretKey: null }), metadata_shortkey: r.metadataShortkey, ref: r.metadataHash.toString('base64url') })),
    next: rows.length > limit && last ? last.id : null,
  };
}

export type MySecret = RecentItem & { ref: string };

/** Burns one of the account's own unread secrets; 404 for anything else (not its own, already read...). */
export async function burnOwnSecret(deps: SecretsDeps, principal: Principal, ref: string) {
  const hash = /^[A-Za-z0-9_-]{43}$/.test(ref) ? Buffer.from(ref, 'base64url') : undefined;
  const record = hash && (await deps.secrets.findMetadata(hash));
  if (!hash || !record || record.custid !== principal.custid) throw new UnknownSecretError();
  const burned = await deps.secrets.burn(hash);
  if (!burned) throw new UnknownSecretError();
  deps.events.burned();
  return presentMetadata(burned, { metadataKey: null, secretKey: null });
}
