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
 *   (epoch seconds), as after the client was deleted.
 * Ids are hashed as identity stores its artifacts (ADR 8): Redis never holds a token's own id.
 */
export type Revocation = { kind: 'token'; key: string } | { kind: 'grant'; key: string } | { kind: 'client'; clientId: string; notBefore: number };

/** The Redis key and pub/sub channel name, shared by identity and secrets (REVOCATIONS_CHANNEL). */
export const DEFAULT_REVOCATIONS_CHANNEL = 'hush:revocations';

/** SHA-256, base64url: the same key identity stores its artifacts under (services/identity/src/oidc/artifact-key.ts). */
export function revocationKey(id: string): string {
  return hash('sha256', id, 'base64url');
}

export function encodeRevocation(r: Revocation): string {
  switch (r.kind) {
    case 'token':
    case 'grant':
      return `${r.kind}:${r.key}`;
    case 'client':
      return `client:${r.notBefore}:${r.clientId}`;
  }
}

/** The event a member of the set names, or undefined for anything else (written by a newer version, say). */
export function decodeRevocation(member: string): Revocation | undefined {
  const colon = member.indexOf(':');
  const kind = member.slice(0, colon);
  const rest = member.slice(colon + 1);
  if (colon < 0 || rest === '') return undefined;
  if (kind === 'token' || kind === 'grant') return { kind, key: rest };
  if (kind === 'client') {
    const [notBefore, clientId] = splitOnce(rest);
    if (!/^\d+$/.test(notBefore) || !clientId) return undefined;
    return { kind, clientId, notBefore: Number(notBefore) };
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
