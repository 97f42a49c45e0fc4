import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { authorize, clientConfig } from '../../identity/test/flows.js';
import { startIdentity, type Harness as IdentityHarness } from '../../identity/test/harness.js';
import { postForm } from '@hush/testing';
import { startSecrets, type Harness } from './harness.js';

/**
 * The real identity service next to the secrets service: identity's bootstrap registers the
 * secrets API (its audience and scopes), and the secrets app trusts identity's issuer and JWKS.
 */
export async function startWithIdentity(
  overrides: Record<string, string> = {},
  identityOverrides: Record<string, string> = {},
): Promise<{ identity: IdentityHarness; h: Harness }> {
  const identity = await startIdentity(identityOverrides);
  return closingOnFailure(identity, async () => {
    const h = await startSecrets({ IDENTITY_ISSUER: identity.issuer, REVOCATIONS_CHANNEL: identity.config.REVOCATIONS_CHANNEL, ...overrides });
    await closingOnFailure(h, () => identity.cli('bootstrap', '--secrets-audience', h.config.API_AUDIENCE));
    return { identity, h };
  });
}

/** What `next` returns; if it fails, `started` is closed before the failure goes on. */
async function closingOnFailure<T>(started: { close(): Promise<void> }, next: () => Promise<T>): Promise<T> {
  try {
    return await next();
  } catch (err) {
    await started.close().catch(() => undefined);
    throw err;
  }
}

/** A client-credentials access token for the secrets API with the given scopes. */
export async function clientToken(identity: IdentityHarness, scopes: string, opts: { org?: string } = {}) {
  const args = ['clients', 'create', '--name', `client ${randomBytes(3).toString('hex')}`, '--grants', 'client_credentials', '--scopes', 'secrets:read,secrets:write'];
  if (opts.org) args.push('--org', opts.org);
  const client = await identity.cli<{ client_id: string; client_secret: string }>(...args);
  const res = await postForm(`${identity.issuer}/protocol/openid-connect/token`, {
    grant_type: 'client_credentials',
    scope: scopes,
    client_id: client.client_id,
    client_secret: client.client_secret,
  });
  if (res.status !== 200) throw new Error(`token request failed: ${JSON.stringify(res.body)}`);
  return { clientId: client.client_id, accessToken: String(res.body['access_token']) };
}

/** A user's access token through the real login and consent pages (authorization code + PKCE). */
export async function userToken(identity: IdentityHarness, username: string, password: string, scopes: string) {
  const redirect = 'http://127.0.0.1:9/callback';
  const client = await identity.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--name',
    `app ${randomBytes(3).toString('hex')}`,
    '--grants',
    'authorization_code',
    '--scopes',
    'secrets:read,secrets:write',
    '--redirect-uri',
    redirect,
  );
  const config = await clientConfig(identity.issuer, client.client_id, client.client_secret);
  const { callback, verifier, state } = await authorize(config, { redirectUri: redirect, scope: `openid ${scopes}`, username, password });
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  return tokens.access_token;
}

/**
 * The secrets service with its web app on, next to identity: identity's bootstrap registers the
 * web client (redirect `${url}/auth/callback`) with the secret both services are given, as the
 * launcher does. `users` are created in identity with `password`.
 */
export async function startWebWithIdentity(
  overrides: Record<string, string> = {},
  identityOverrides: Record<string, string> = {},
): Promise<{ identity: IdentityHarness; h: Harness; clientSecret: string }> {
  const clientSecret = randomBytes(32).toString('hex');
  const identity = await startIdentity({ SECRETS_WEB_CLIENT_SECRET: clientSecret, ...identityOverrides });
  return closingOnFailure(identity, async () => {
    const h = await startSecrets({ IDENTITY_ISSUER: identity.issuer, WEB_CLIENT_SECRET: clientSecret, ...overrides });
    await closingOnFailure(h, () => identity.cli('bootstrap', '--secrets-audience', h.config.API_AUDIENCE, '--secrets-url', h.url));
    return { identity, h, clientSecret };
  });
}
