import { ALL_SECRETS_SCOPES } from '@hush/contracts';
import type * as Oidc from 'openid-client';
import { IdentityUnavailableError } from '../../errors.js';

/**
 * The web app as a confidential OIDC client of identity, through openid-client (no hand-written
 * token code): discovery (once, retried after a failure), the authorization code grant with PKCE
 * S256, `state` and `nonce`, ID token validation (signature against identity's JWKS, issuer,
 * audience, expiry, nonce), the refresh token grant and RP-initiated logout.
 */
export interface IdentityClientOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** `${BASE_URL}/auth/callback`, registered by identity's bootstrap. */
  redirectUri: string;
  /** `${BASE_URL}/auth/signed-out`, registered likewise. */
  postLogoutRedirectUri: string;
  /** Where to reach identity from here, when its public origin is not reachable (compose, k8s). */
  internalUrl?: string | undefined;
}

/** What a sign-in in progress must remember until the callback (kept sealed in a cookie). */
export interface PendingSignIn {
  state: string;
  nonce: string;
  verifier: string;
  /** The page to go back to (a path of this service). */
  returnTo: string;
}

export interface Tokens {
  idToken: string;
  accessToken: string;
  refreshToken: string;
  scope: string;
  accessExpiresAt: Date;
}

export interface SignedIn extends Tokens {
  sub: string;
  username: string;
}

/**
 * openid-client (with oauth4webapi, ~0.7 MB of heap) is loaded by the first sign-in, not at start:
 * a process that only serves the API never needs it.
 */
let library: Promise<typeof Oidc> | undefined;
const openIdClient = () => (library ??= import('openid-client'));

export const WEB_SCOPES = ['openid', 'profile', ...ALL_SECRETS_SCOPES].join(' ');

/** The authorization server answered with an OAuth error (invalid_grant...): the credential is dead. */
export class IdentityRefusedError extends Error {
  constructor(readonly error: string) {
    super(`identity refused: ${error}`);
  }
}

/** The callback cannot complete the sign-in (state, code, ID token...): the person starts again. */
export class SignInFailedError extends Error {}

export class IdentityClient {
  private config: Promise<Oidc.Configuration> | undefined;

  constructor(private readonly o: IdentityClientOptions) {}

  private configuration(): Promise<Oidc.Configuration> {
    this.config ??= this.discover().catch((err: unknown) => {
      this.config = undefined;
      throw unavailable(err) ? new IdentityUnavailableError() : err;
    });
    return this.config;
  }

  private async discover(): Promise<Oidc.Configuration> {
    const oidc = await openIdClient();
    const issuer = new URL(this.o.issuer);
    const insecure = issuer.protocol === 'http:';
    const fetchVia = this.internalFetch();
    const config = await oidc.discovery(
      issuer,
      this.o.clientId,
      { client_secret: this.o.clientSecret, id_token_signed_response_alg: 'ES256' },
      oidc.ClientSecretBasic(this.o.clientSecret),
      { execute: insecure ? [oidc.allowInsecureRequests] : [], ...(fetchVia ? { [oidc.customFetch]: fetchVia } : {}) },
    );
    if (fetchVia) config[oidc.customFetch] = fetchVia;
    // ID tokens from the token endpoint are checked against identity's keys too, not only trusted for the channel.
    oidc.enableNonRepudiationChecks(config);
    return config;
  }

  /** Requests to identity's public origin go to `internalUrl` instead (same paths). */
  private internalFetch(): Oidc.CustomFetch | undefined {
    const internal = this.o.internalUrl;
    if (!internal) return undefined;
    const publicOrigin = new URL(this.o.issuer).origin;
    return (url, options) => {
      const target = url.startsWith(publicOrigin) ? `${new URL(internal).origin}${url.slice(publicOrigin.length)}` : url;
      return fetch(target, options);
    };
  }

  /** The authorization URL to send the browser to, and what the callback will need. */
  /** The authorization request; `locale`: the page's language, asked of identity's sign-in pages too (`ui_locales`). */
  async start(returnTo: string, locale?: string): Promise<{ url: URL; pending: PendingSignIn }> {
    const oidc = await openIdClient();
    const config = await this.configuration();
    const pending: PendingSignIn = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier(), returnTo };
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.o.redirectUri,
      scope: WEB_SCOPES,
      state: pending.state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      ...(locale !== undefined ? { ui_locales: locale } : {}),
    });
    return { url, pending };
  }

  /** Checks the callback (state, iss, code), exchanges the code with the PKCE verifier and validates the ID token. */
  async finish(callbackUrl: URL, pending: PendingSignIn): Promise<SignedIn> {
    const oidc = await openIdClient();
    const config = await this.configuration();
    let tokens: Awaited<ReturnType<typeof Oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      if (unavailable(err)) throw new IdentityUnavailableError();
      throw new SignInFailedError(describe(oidc, err));
    }
    const claims = tokens.claims();
    const username = claims?.['preferred_username'];
    if (!claims || typeof username !== 'string' || !username || !tokens.id_token || !tokens.refresh_token) {
      throw new SignInFailedError('identity sent no username or refresh token');
    }
    return { sub: claims.sub, username, ...toTokens(tokens, tokens.refresh_token, tokens.id_token) };
  }

  /** A new access token (and the rotated refresh token); IdentityRefusedError when the grant is gone. */
  async refresh(current: Tokens): Promise<Tokens> {
    const oidc = await openIdClient();
    const config = await this.configuration();
    try {
      const tokens = await oidc.refreshTokenGrant(config, current.refreshToken);
      return toTokens(tokens, tokens.refresh_token ?? current.refreshToken, tokens.id_token ?? current.idToken);
    } catch (err) {
      if (err instanceof oidc.ResponseBodyError) throw new IdentityRefusedError(err.error);
      if (unavailable(err)) throw new IdentityUnavailableError();
      throw err;
    }
  }

  /** identity's end-session URL: RP-initiated logout with id_token_hint and our registered post-logout redirect. */
  async endSessionUrl(idToken: string | undefined): Promise<URL | undefined> {
    const oidc = await openIdClient();
    let config: Oidc.Configuration;
    try {
      config = await this.configuration();
    } catch {
      return undefined;
    }
    return oidc.buildEndSessionUrl(config, {
      post_logout_redirect_uri: this.o.postLogoutRedirectUri,
      client_id: this.o.clientId,
      ...(idToken ? { id_token_hint: idToken } : {}),
    });
  }
}

function toTokens(t: Oidc.TokenEndpointResponse & Oidc.TokenEndpointResponseHelpers, refreshToken: string, idToken: string): Tokens {
  return {
    idToken,
    accessToken: t.access_token,
    refreshToken,
    scope: t.scope ?? WEB_SCOPES,
    accessExpiresAt: new Date(Date.now() + (t.expiresIn() ?? 300) * 1000),
  };
}

/** Network failures (fetch's TypeError, compared by name: it may come from another realm) and timeouts. */
function unavailable(err: unknown): boolean {
  const e = err as { name?: unknown; message?: unknown; cause?: unknown } | null;
  if (e?.name === 'TypeError' && typeof e.message === 'string' && /fetch failed/.test(e.message)) return true;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return true;
  return e?.cause !== undefined && e.cause !== err && unavailable(e.cause);
}

/** For the log: the OAuth error code or the check that failed, never a token. */
function describe(oidc: typeof Oidc, err: unknown): string {
  if (err instanceof oidc.AuthorizationResponseError || err instanceof oidc.ResponseBodyError) return err.error;
  const e = err as { code?: unknown; message?: unknown } | null;
  return typeof e?.code === 'string' ? e.code : 'sign-in failed';
}
