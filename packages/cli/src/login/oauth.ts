import { ALL_SECRETS_SCOPES } from '@hush/contracts/scopes';
import { CliError, EXIT, OAuthError } from '../errors.ts';

/** What hush uses of identity's discovery document (OpenID Connect Discovery 1.0). */
export interface Endpoints {
  token_endpoint: string;
  device_authorization_endpoint: string;
  revocation_endpoint?: string | undefined;
}

/** The secrets API's scopes (identity adds the person's profile and e-mail to an OpenID request). */
export const SCOPE = ['openid', ...ALL_SECRETS_SCOPES].join(' ');
export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** A token endpoint's answer (RFC 6749 §5.1). */
export interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  expires_in?: number;
  id_token?: string;
}

export async function discover(issuer: string): Promise<Endpoints> {
  const res = await fetch(`${issuer}/.well-known/openid-configuration`, { headers: { accept: 'application/json' }, redirect: 'error' });
  const doc = (await res.json().catch(() => undefined)) as Partial<Endpoints> | undefined;
  if (!res.ok || typeof doc?.token_endpoint !== 'string' || typeof doc.device_authorization_endpoint !== 'string') {
    throw new CliError(EXIT.failure, `${issuer} is not an identity service hush can sign in with (no device authorization in its discovery document).`);
  }
  return { token_endpoint: doc.token_endpoint, device_authorization_endpoint: doc.device_authorization_endpoint, revocation_endpoint: doc.revocation_endpoint };
}

/** A form POST to an OAuth endpoint: its JSON answer, or an OAuthError for `{error}`. */
export async function postForm(url: string, fields: Record<string, string>): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(fields),
    redirect: 'error',
  });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const { error, error_description: description } = body;
    throw new OAuthError(res.status, typeof error === 'string' ? error : `http_${res.status}`, typeof description === 'string' ? description : undefined);
  }
  return body;
}

/** The person's name in a JWT's payload (read, not verified: only to say who signed in). */
export function usernameIn(jwt: string | undefined): string | undefined {
  const payload = jwt?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const name = claims['preferred_username'] ?? claims['username'];
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}
