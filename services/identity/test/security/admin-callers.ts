import { randomBytes } from 'node:crypto';
import * as oidc from 'openid-client';
import { postForm } from '@hush/testing';
import { authorize, clientConfig } from '../flows.js';
import type { Harness } from '../harness.js';

/**
 * The callers the admin API's attack tests use: the bootstrap administrator (hush-admin), clients
 * whose service accounts hold some realm-management roles, and people holding some, signed in
 * through the authorization code flow as an administrator's browser app would be.
 */

export const ADMIN_PATH = '/auth/admin/realms/public';
export const REALM_MANAGEMENT_ID = 'a0b1c2d3-0000-4000-8000-7265616c6d6d';
const APP_REDIRECT = 'https://admin-app.example.com/cb';

export type AdminAnswer = { status: number; body: unknown; location: string | null; headers: Headers };

export interface AdminCallers {
  /** The bootstrap administrator's (hush-admin, realm-admin) access token. */
  admin: string;
  adminSecret: string;
  call(token: string | undefined, method: string, path: string, body?: unknown): Promise<AdminAnswer>;
  /** A client whose service account holds `roles` (comma-separated): its client-credentials token. */
  clientHolding(roles: string): Promise<{ token: string; clientId: string; secret: string }>;
  /** A person holding `roles` (none when empty), signed in: the admin API token of an app of theirs. */
  personHolding(roles: string, password?: string): Promise<{ token: string; username: string; password: string }>;
  /** A new id from a 201's Location. */
  idOf(answer: AdminAnswer): string;
  tokenOf(clientId: string, secret: string): Promise<string>;
}

export async function adminCallers(h: Harness): Promise<AdminCallers> {
  const tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
  const suffix = randomBytes(3).toString('hex');
  const boot = await h.cli<{ admin_client: { client_secret: string } }>('bootstrap', '--secrets-audience', `https://secrets-${suffix}.example.com/api/v1`);
  const tokenOf = async (clientId: string, secret: string) => {
    const res = await postForm(tokenUrl, { grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
    if (res.status !== 200) throw new Error(`no token for ${clientId}: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { access_token: string }).access_token;
  };
  const admin = await tokenOf('hush-admin', boot.admin_client.client_secret);
  const app = await h.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--name',
    'an administrator’s app',
    '--grants',
    'authorization_code',
    '--scopes',
    'openid,realm-management',
    '--redirect-uri',
    APP_REDIRECT,
  );
  const appConfig = await clientConfig(h.issuer, app.client_id, app.client_secret);
  let made = 0;

  return {
    admin,
    adminSecret: boot.admin_client.client_secret,
    tokenOf,
    async call(token, method, path, body) {
      const res = await fetch(`${h.url}${ADMIN_PATH}${path}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined, location: res.headers.get('location'), headers: res.headers };
    },
    idOf: (answer) => {
      if (answer.status !== 201 || !answer.location) throw new Error(`not created: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.location.split('/').pop()!;
    },
    async clientHolding(roles) {
      const c = await h.cli<{ client_id: string; client_secret: string }>(
        'clients',
        'create',
        '--name',
        `holds ${roles}`,
        '--grants',
        'client_credentials',
        '--scopes',
        'realm-management',
      );
      if (roles) await h.cli('roles', 'grant', roles, '--client', c.client_id);
      return { token: await tokenOf(c.client_id, c.client_secret), clientId: c.client_id, secret: c.client_secret };
    },
    async personHolding(roles, password = `pw-${randomBytes(9).toString('hex')}`) {
      const username = `person-${suffix}-${++made}`;
      await h.cli('users', 'create', username, '--password', password);
      if (roles) await h.cli('roles', 'grant', roles, '--user', username);
      const { callback, verifier, state } = await authorize(appConfig, { redirectUri: APP_REDIRECT, scope: 'openid realm-management', username, password });
      const tokens = await oidc.authorizationCodeGrant(appConfig, callback, { pkceCodeVerifier: verifier, expectedState: state });
      return { token: tokens.access_token, username, password };
    },
  };
}
