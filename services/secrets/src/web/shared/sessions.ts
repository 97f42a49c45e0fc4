import { decodeJwt } from 'jose';
import { inBoundedBatches, randomBytes, sha256, type KeyRing, type Logger } from '@hush/common';
import { verifiedAddress } from '../../auth/verified-address.js';
import { SCOPES, type Principal } from '../../auth/principal.js';
import { IdentityUnavailableError } from '../../errors.js';
import type { RevocationFeed } from '../../revocations/revocation-feed.js';
import { IdentityRefusedError, type IdentityClient, type SignedIn, type Tokens } from './identity-client.js';
import type { SessionRecord, WebSessionsRepository } from './sessions.repository.js';
import { KEY_LABELS } from '../../key-labels.js';

/** A signed-in person, as a request sees it. */
export interface WebSession {
  /** SHA-256 of the cookie's id: binds the forms' CSRF tokens to this session. */
  idHash: Buffer;
  /** The identity username: the account (custid), as for the user's Bearer access tokens. */
  custid: string;
  scopes: ReadonlySet<string>;
  /** The person's address when identity says it is verified (from the current access token, unless identity announced a change since). */
  email?: string;
}

export interface SessionSettings {
  idleSeconds: number;
  maxSeconds: number;
}

/** A refresh starts this long before the access token expires. */
const REFRESH_MARGIN_MS = 30_000;

/**
 * Server-side sessions: the browser holds a random 256-bit id (cookie), the database its SHA-256
 * and the tokens from identity sealed with AES-256-GCM under HKDF(MASTER_KEY), bound to that hash.
 * The access token is refreshed with the refresh token when it is due; identity refusing the
 * refresh (the grant was revoked, the user signed out elsewhere...) ends the session here too.
 */
export class WebSessions {
  private readonly keys: KeyRing;

  constructor(
    private readonly repo: WebSessionsRepository,
    private readonly identity: IdentityClient,
    masterKeys: KeyRing,
    private readonly settings: SessionSettings,
    private readonly logger: Logger,
    /** Identity's revocations: whether the address in the session's access token still stands. */
    private readonly revocations: Pick<RevocationFeed, 'addressStatus'>,
  ) {
    this.keys = masterKeys.derive(KEY_LABELS.webSession);
  }

  /** A new session (a new id: the session is rotated at every sign-in); returns the cookie's id. */
  async create(signedIn: SignedIn): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const idHash = sha256(id);
    await this.repo.create({
      idHash,
      custid: signedIn.username,
      tokensSealed: this.sealTokens(idHash, signedIn),
      accessExpiresAt: signedIn.accessExpiresAt,
      idleSeconds: this.settings.idleSeconds,
      maxSeconds: this.settings.maxSeconds,
    });
    return id;
  }

  /** The live session of this cookie id, refreshed if due; undefined when there is none (any more). */
  async load(id: string | undefined): Promise<WebSession | undefined> {
    if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const idHash = sha256(id);
    const record = await this.repo.find(idHash);
    if (!record) return undefined;
    if (record.accessExpiresAt.getTime() - REFRESH_MARGIN_MS > Date.now()) {
      await this.repo.touch(idHash, this.settings.idleSeconds);
      return this.present(record);
    }
    const refreshed = await this.repo.locked(idHash, async (current, store) => {
      if (!current) return undefined;
      // Another request (maybe on another replica) refreshed while this one waited for the lock.
      if (current.accessExpiresAt.getTime() - REFRESH_MARGIN_MS > Date.now()) return current;
      const tokens = this.openTokens(current);
      try {
        const next = await this.identity.refresh({ ...tokens, accessExpiresAt: current.accessExpiresAt });
        const sealed = this.sealTokens(idHash, next);
        await store.save(sealed, next.accessExpiresAt);
        return { ...current, tokensSealed: sealed, accessExpiresAt: next.accessExpiresAt };
      } catch (err) {
        if (err instanceof IdentityRefusedError) {
          this.logger.info({ event: 'web_session_ended', reason: err.error }, 'identity refused the refresh: web session ended');
          await store.remove();
          return undefined;
        }
        // Identity unreachable: the session stays usable within its own timeouts; the refresh is retried on the next request.
        if (err instanceof IdentityUnavailableError) {
          this.logger.warn({ event: 'web_refresh_deferred' }, 'identity unreachable: token refresh deferred');
          return current;
        }
        throw err;
      }
    });
    if (refreshed) await this.repo.touch(idHash, this.settings.idleSeconds);
    return refreshed && this.present(refreshed);
  }

  /** Ends the session here; returns its ID token (for identity's logout) when there was one. */
  async end(id: string | undefined): Promise<string | undefined> {
    if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const record = await this.repo.delete(sha256(id));
    if (!record) return undefined;
    try {
      return this.openTokens(record).idToken;
    } catch {
      return undefined;
    }
  }

  /** Deletes the sessions that are over, `batchSize` per statement. */
  sweep(batchSize: number): Promise<number> {
    return inBoundedBatches((limit) => this.repo.sweep(limit), batchSize);
  }

  private present(r: SessionRecord): WebSession {
    const tokens = this.openTokens(r);
    return { idHash: r.idHash, custid: r.custid, scopes: new Set(tokens.scope.split(' ').filter(Boolean)), ...this.emailOf(tokens.accessToken) };
  }

  /**
   * The verified address in the session's access token, if it still stands (verified-address.ts).
   * The token came straight from identity's token endpoint (client authentication, TLS in
   * production), so its claims are read, not verified again.
   */
  private emailOf(accessToken: string): { email?: string } {
    try {
      return verifiedAddress(decodeJwt(accessToken), this.revocations);
    } catch {
      return {};
    }
  }

  private sealTokens(idHash: Buffer, t: Tokens): Buffer {
    const { idToken, accessToken, refreshToken, scope } = t;
    return this.keys.seal(JSON.stringify({ idToken, accessToken, refreshToken, scope }), `web-session:${idHash.toString('hex')}`);
  }

  private openTokens(r: SessionRecord): Omit<Tokens, 'accessExpiresAt'> {
    return JSON.parse(this.keys.open(r.tokensSealed, `web-session:${r.idHash.toString('hex')}`).toString('utf8')) as Omit<Tokens, 'accessExpiresAt'>;
  }
}

/**
 * The principal of a signed-in person: the very type the Bearer path builds for a user's access
 * token (auth/access-tokens.ts), so plans, limits and ownership are identical.
 */
export function principalOfSession(s: WebSession): Principal {
  return { custid: s.custid, scopes: s.scopes, via: 'user_token', ...(s.email !== undefined ? { email: s.email } : {}) };
}

export const WEB_REQUIRED_SCOPES = [SCOPES.read, SCOPES.write];
