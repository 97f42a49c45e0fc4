import * as oidc from 'openid-client';
import { Browser } from '@hush/testing';

type Page = Awaited<ReturnType<Browser['navigate']>>;

/** openid-client's view of a confidential client of `issuer` (client_secret_basic, RS256 ID tokens (the realm default), plain http allowed). */
export function clientConfig(issuer: string, clientId: string, clientSecret: string, idTokenAlg = 'RS256'): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(issuer), clientId, { client_secret: clientSecret, id_token_signed_response_alg: idTokenAlg }, oidc.ClientSecretBasic(clientSecret), {
    execute: [oidc.allowInsecureRequests],
  });
}

/** An authorization-code request with PKCE (S256) for `config`'s client, and what its code exchange needs. */
export async function authorizationUrl(config: oidc.Configuration, redirectUri: string, scope: string, extra: Record<string, string> = {}) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope,
    state,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...extra,
  });
  return { url, verifier, state };
}

/** Opens `url` in a fresh browser and signs in on the login page; leaves the browser on the consent page. */
export async function signIn(url: URL, username: string, password: string): Promise<{ browser: Browser; login: Page; consent: Page }> {
  const browser = new Browser(url.origin);
  const login = await browser.navigate(url.toString());
  const consent = await browser.submit(login.html, 0, { username, password });
  return { browser, login, consent };
}

/**
 * Signs in and allows on the consent page, if there is one (a first-party client, or a person who
 * allowed the client before, is not asked); returns the redirect to the client and what the code
 * exchange needs.
 */
export async function authorize(config: oidc.Configuration, opts: { redirectUri: string; scope: string; username: string; password: string; extra?: Record<string, string> }) {
  const { url, verifier, state } = await authorizationUrl(config, opts.redirectUri, opts.scope, opts.extra);
  const { browser, login, consent } = await signIn(url, opts.username, opts.password);
  const back = consent.leftTo ? consent : await browser.submit(consent.html, 0, {});
  return { callback: new URL(back.leftTo as string), verifier, state, browser, login, consent };
}
