import { hash } from 'node:crypto';
import type { AdapterPayload } from 'oidc-provider';

/**
 * What a copy of the database must not yield: the ids of oidc-provider's artifacts are the
 * credentials themselves (a refresh token or authorization code is its id, a session's id is its
 * cookie's value). They are stored under this key instead.
 *
 * SHA-256, with no key: every id is at least 256 bits of server-chosen randomness, so no guess can
 * be checked against the hash, and a keyed hash would add nothing but a dependency on MASTER_KEY
 * (changing it would end every session and refresh token) and would keep the migration that
 * hashes existing rows from being plain SQL. The same reasoning as client secrets (ADR 3).
 */
export function artifactKey(id: string): string {
  // One-shot: `createHash` leaves a native handle per call for the scavenger (two per token).
  return hash('sha256', id, 'base64url');
}

/**
 * The payload as stored: without the id oidc-provider copies into it (`jti`), nor the session
 * cookie an interaction records (`session.cookie`, which oidc-provider never reads back).
 */
export function storablePayload(payload: AdapterPayload): AdapterPayload {
  const { jti: _id, ...stored } = payload;
  if (stored.session?.cookie !== undefined) {
    const { cookie: _cookie, ...session } = stored.session;
    stored.session = session;
  }
  return stored;
}
