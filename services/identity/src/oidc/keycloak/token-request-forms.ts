import { timingSafeEqual } from 'node:crypto';
import * as querystring from 'node:querystring';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { parseBasicClientAuth } from '@hush/common';
import { LEGACY_PAR_PATH, ROUTES } from '../routes.js';
import { looksLikeJwt, openEnvelope, openRefreshEnvelope, type EnvelopeKeys } from '../token-envelope.js';
import { readRequestBody } from '../request-body.js';

/** The POST endpoints that authenticate clients, and what each may carry in an envelope. */
const FORM_ROUTES = new Map<string, 'refresh_token' | 'token' | undefined>([
  [ROUTES.token, 'refresh_token'],
  [ROUTES.introspection, 'token'],
  [ROUTES.revocation, 'token'],
  [ROUTES.pushed_authorization_request, undefined],
  [LEGACY_PAR_PATH, undefined],
]);
/** Stands in for a refresh token that is not a valid envelope: never an id of a stored token (those are 43 characters). */
const NO_SUCH_TOKEN = 'not-an-envelope';

/** A field read only when sent once; a repeated one is left as it is for oidc-provider, which refuses duplicates. */
const once = (value: string | string[] | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * Reads the form body of the client-authenticated POST endpoints before oidc-provider does, for
 * two things Keycloak's clients need, and hands the (possibly changed) form on as `req.body`,
 * which oidc-provider reads when the stream has been consumed:
 * - keycloak-connect sends its client secret both with HTTP Basic and in the body. Keycloak takes
 *   that when both say the same; oidc-provider refuses any second mechanism. When the body's
 *   client_id and client_secret equal Basic's, the body's copies go; when they differ, the
 *   request is refused as invalid_client (401), the answer to a wrong secret.
 * - refresh tokens (and, at introspection and revocation, any token) arrive in their JWT
 *   envelopes (token-envelope.ts): a valid envelope is replaced by the stored id it carries. At
 *   the token endpoint a refresh token that is not a valid envelope is swapped for an id no token
 *   has (invalid_grant once the client has authenticated), so the bare id inside an envelope is
 *   no credential on its own.
 */
export function tokenRequestForms(keys: () => EnvelopeKeys) {
  return async function rewriteForm(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    if (ctx.method !== 'POST' || !FORM_ROUTES.has(ctx.path) || !ctx.is('application/x-www-form-urlencoded')) return next();
    const raw = await readRequestBody(ctx);
    if (raw === undefined) {
      answer(ctx, 400, 'invalid_request', 'failed to parse the request body');
      return;
    }
    const form = querystring.parse(raw.toString('utf8'));
    // Whether the form differs from what was sent; an unchanged one goes on as the bytes received.
    let changed = false;

    const clientSecret = once(form['client_secret']);
    const basic = /^basic /i.test(ctx.get('authorization')) ? parseBasicClientAuth(ctx.get('authorization')) : undefined;
    if (basic && clientSecret !== undefined) {
      const sameId = form['client_id'] === undefined || form['client_id'] === basic.clientId;
      if (!sameId || !equal(clientSecret, basic.clientSecret)) {
        answer(ctx, 401, 'invalid_client', 'the client credentials in the Authorization header and in the body differ');
        return;
      }
      delete form['client_secret'];
      changed = true;
    }

    const field = FORM_ROUTES.get(ctx.path);
    const value = field && once(form[field]);
    if (field === 'refresh_token' && once(form['grant_type']) === 'refresh_token' && value !== undefined) {
      // Not a valid envelope: a value no stored token has, so that oidc-provider still authenticates
      // the client first (a wrong secret is invalid_client) and then answers invalid_grant.
      form['refresh_token'] = (looksLikeJwt(value) ? await openRefreshEnvelope(keys(), value) : undefined) ?? NO_SUCH_TOKEN;
      changed = true;
    } else if (field === 'token' && value !== undefined && looksLikeJwt(value)) {
      const id = await openEnvelope(keys(), value);
      if (id) {
        form['token'] = id;
        changed = true;
      }
    }
    // oidc-provider parses either the same way (a form parsed, written out and parsed again is the form parsed once).
    Object.assign(ctx.req, { body: changed ? Buffer.from(querystring.stringify(form)) : raw });
    return next();
  };
}

/** Both values come from the caller; compared in constant time all the same. */
function equal(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function answer(ctx: KoaContextWithOIDC, status: number, error: string, description: string): void {
  ctx.status = status;
  ctx.set('cache-control', 'no-store');
  ctx.set('pragma', 'no-cache');
  ctx.body = { error, error_description: description };
}
