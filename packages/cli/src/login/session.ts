import { ZkApiError } from '@hush/zk/client';
import { CliError, EXIT, explain, OAuthError } from '../errors.ts';
import type { Settings } from '../settings.ts';
import { withFileLock } from '../private-files.ts';
import { credentialsPath, forgetLogin, loadLogin, saveLogin, type Login } from './credentials.ts';
import { postForm, type TokenAnswer } from './oauth.ts';

/** An access token this close to its end is refreshed first: it could expire on its way. */
const EARLY_SECONDS = 30;

export const now = () => Math.floor(Date.now() / 1000);

/** A login from a token endpoint's answer; the refresh token is kept when the answer has none. */
export function loginOf(answer: TokenAnswer, base: Omit<Login, 'access_token' | 'expires_at'>): Login {
  return {
    ...base,
    access_token: answer.access_token,
    refresh_token: answer.refresh_token ?? base.refresh_token,
    expires_at: now() + (typeof answer.expires_in === 'number' ? answer.expires_in : 60),
  };
}

/**
 * The credentials hush sends the secrets API: HUSH_API_TOKEN (HTTP Basic) when set, else the
 * login's access token, refreshed when it has expired; none when neither (an anonymous share, a
 * plain read).
 */
export interface Session {
  authorization(): Promise<string | undefined>;
  /** A new access token after the API refused the current one (revoked, or expired early). */
  renewed(): Promise<string>;
}

export function sessionOf(settings: Settings): Session {
  const expired = new CliError(EXIT.login, 'Your login has expired or was ended: sign in again with `hush login`.');

  /** Refreshes the login, unless another hush did it meanwhile (the file is read again under the lock). */
  async function refresh(stale: string | undefined): Promise<string> {
    return withFileLock(credentialsPath(settings), async () => {
      const login = await loadLogin(settings);
      if (!login) throw expired;
      if (login.access_token !== stale && login.expires_at - EARLY_SECONDS > now()) return login.access_token;
      if (!login.refresh_token) throw expired;
      let answer: TokenAnswer;
      try {
        answer = (await postForm(login.token_endpoint, { grant_type: 'refresh_token', refresh_token: login.refresh_token, client_id: login.client_id })) as unknown as TokenAnswer;
      } catch (err) {
        if (err instanceof OAuthError && err.error === 'invalid_grant') {
          await forgetLogin(settings);
          throw expired;
        }
        throw explain(err, settings.authUrl);
      }
      const { access_token: _a, expires_at: _e, ...base } = login;
      await saveLogin(settings, loginOf(answer, base));
      return answer.access_token;
    });
  }

  return {
    async authorization() {
      if (settings.apiToken !== undefined) return `Basic ${Buffer.from(settings.apiToken).toString('base64')}`;
      const login = await loadLogin(settings);
      if (!login) return undefined;
      const token = login.expires_at - EARLY_SECONDS > now() ? login.access_token : await refresh(login.access_token);
      return `Bearer ${token}`;
    },
    async renewed() {
      if (settings.apiToken !== undefined) throw new CliError(EXIT.login, 'The secrets service refused HUSH_API_TOKEN.');
      const login = await loadLogin(settings);
      return `Bearer ${await refresh(login?.access_token)}`;
    },
  };
}

/**
 * Calls the secrets API with the session's credentials; when it refuses an access token that
 * still looked valid here (revoked, or a clock ahead), refreshes once and calls again. A refusal
 * of credentials comes before anything is read, consumed or stored.
 */
export async function withCredentials<T>(session: Session, call: (authorization: string | undefined) => Promise<T>): Promise<T> {
  const authorization = await session.authorization();
  try {
    return await call(authorization);
  } catch (err) {
    const refused = err instanceof ZkApiError && err.status === 401 && err.code === 'invalid_token';
    if (!refused || !authorization?.startsWith('Bearer ')) throw err;
    return call(await session.renewed());
  }
}
