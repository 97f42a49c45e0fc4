import { hash } from 'node:crypto';

/**
 * Revocation events: how identity tells resource servers (the secrets API) that access tokens
 * stopped being valid before their `exp` (ADR 10). Identity keeps each event in one Redis sorted
 * set (member: the event; score: the epoch second after which it no longer matters, when every
 * token it can refuse has expired) and announces it on the pub/sub channel of the same name, as
 * `<until> <event>`. A resource server loads the set at start and applies what the channel says.
 *
 * Events:
 * - `token:<key>`: one access token, by `revocationKey(jti)`;
 * - `grant:<key>`: every access token carrying `grant_id` = the grant, by `revocationKey(grant id)`;
 * - `client:<notBefore>:<client_id>`: every token of the client issued at or before `notBefore`
 *   (epoch seconds), as after the client was deleted;
 * - `address:<notBefore>:<sub>:<proves>`: the user's address changed, or was marked unverified;
 *   from `notBefore` on the account proves the address whose `addressKey` is `proves` (empty:
 *   none). A token of the user issued at or before `notBefore` stays valid, but the address it
 *   claims (`email`, `email_verified`) counts only if it is that one. Resource servers that match
 *   people by a verified address (recipient-only secrets) apply it; a token issued in the very
 *   second of the change that claims the address now proven still counts.
 * Ids are hashed as identity stores its artifacts (ADR 8): Redis never holds a token's own id.
 */
export type Revocation =
  | { kind: 'token'; key: string }
  | { kind: 'grant'; key: string }
  | { kind: 'client'; clientId: string; notBefore: number }
  | { kind: 'address'; sub: string; notBefore: number; proves: string | null };

/** The Redis key and pub/sub channel name, shared by identity and secrets (REVOCATIONS_CHANNEL). */
export const DEFAULT_REVOCATIONS_CHANNEL = 'hush:revocations';

/** SHA-256, base64url: the same key identity stores its artifacts under (services/identity/src/oidc/artifact-key.ts). */
export function revocationKey(id: string): string {
  return hash('sha256', id, 'base64url');
}

/** An address as `address` events name it: SHA-256 of the address trimmed and lower-cased (case aside, as mail providers compare), base64url. */
export function addressKey(address: string): string {
  return revocationKey(address.trim().toLowerCase());
}

export function encodeRevocation(r: Revocation): string {
  switch (r.kind) {
    case 'token':
    case 'grant':
      return `${r.kind}:${r.key}`;
    case 'client':
      return `client:${r.notBefore}:${r.clientId}`;
    case 'address':
      return `address:${r.notBefore}:${r.sub}:${r.proves ?? ''}`;
  }
}

/** The event a member of the set names, or undefined for anything else (written by a newer version, say). */
export function decodeRevocation(member: string): Revocation | undefined {
  const colon = member.indexOf(':');
  const kind = member.slice(0, colon);
  const rest = member.slice(colon + 1);
  if (colon < 0 || rest === '') return undefined;
  if (kind === 'token' || kind === 'grant') return { kind, key: rest };
  if (kind === 'client' || kind === 'address') {
    const [notBefore, id] = splitOnce(rest);
    if (!/^\d+$/.test(notBefore) || !id) return undefined;
    if (kind === 'client') return { kind, clientId: id, notBefore: Number(notBefore) };
    const [sub, proves] = splitOnce(id);
    return sub ? { kind, sub, notBefore: Number(notBefore), proves: proves || null } : undefined;
  }
  return undefined;
}

/** A channel message `<until> <event>`: the event and the epoch second it matters until. */
export function decodeRevocationMessage(message: string): { revocation: Revocation; until: number } | undefined {
  const [until, member] = splitOnce(message, ' ');
  const revocation = member ? decodeRevocation(member) : undefined;
  if (!revocation || !/^\d+$/.test(until)) return undefined;
  return { revocation, until: Number(until) };
}

function splitOnce(s: string, sep = ':'): [string, string | undefined] {
  const at = s.indexOf(sep);
  return at < 0 ? [s, undefined] : [s.slice(0, at), s.slice(at + 1)];
}
