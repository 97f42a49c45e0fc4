import type { KoaContextWithOIDC } from 'oidc-provider';
import { parseBasicClientAuth, securePage } from '@hush/common';
import { checksFor, clientAuthState, compareAndCheck, DECOY_HASH } from '../../clients/index.js';
import type { ClientAuthLimits } from '../../clients/index.js';
import { identityErrorPage } from '../../pages/index.js';

/** The routes that authenticate clients: on them a 401 is always invalid_client, in JSON or as a page. */
const AUTHENTICATED_ROUTES = new Set(['token', 'introspection', 'revocation']);

/** The client id and secret as the caller sent them, in the body or with HTTP Basic. */
function presentedCredentials(ctx: KoaContextWithOIDC): { clientId: string | undefined; secret: string } {
  const params = ctx.oidc?.params;
  const fromBody = typeof params?.['client_id'] === 'string' ? params['client_id'] : undefined;
  const basicAuth = parseBasicClientAuth(ctx.get('authorization'));
  const secret = typeof params?.['client_secret'] === 'string' ? params['client_secret'] : (basicAuth?.clientSecret ?? '');
  return { clientId: fromBody ?? basicAuth?.clientId, secret };
}

/**
 * Decides how a failed client authentication is answered (rules: clients/client-auth-failures.ts):
 * a caller the counters' read found blocked gets 429 with Retry-After; any other failure is
 * counted, and answered by that count, in one step (`take`): within the limit it stays a 401, past
 * it a 429, so of any number of failures at once no more than the limit are answered 401. oidc-provider compares
 * a known client's secret through the patched `compareClientSecret` (../patches.ts), which leaves
 * the counters' answer on the context; unknown client ids (and clients that use no secret) never
 * reach it, so they do the same comparison here, against a decoy.
 */
export function clientAuthLimiter(failures: ClientAuthLimits) {
  return async function limitClientAuth(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    await next();
    if (ctx.status !== 401 || !AUTHENTICATED_ROUTES.has(ctx.oidc?.route ?? '')) return;

    const { clientId, secret } = presentedCredentials(ctx);
    const state = clientAuthState(ctx);
    if (state.clientAuthRetryAfter === undefined) await compareAndCheck(failures, ctx, clientId, secret, DECOY_HASH);
    const wait = state.clientAuthRetryAfter || (await failures.limits.take(checksFor(failures, clientId, ctx.ip)));
    if (wait > 0) tooManyAttempts(ctx, wait);
  };
}

/** Turns the 401 into a 429 with Retry-After, in the form the provider answered the 401 (JSON or a page). */
function tooManyAttempts(ctx: KoaContextWithOIDC, wait: number): void {
  const error = 'temporarily_unavailable';
  const description = `too many failed client authentications; retry after ${wait} seconds`;
  const html = Boolean(ctx.response.is('html'));
  ctx.status = 429;
  ctx.set('Retry-After', String(wait));
  ctx.remove('WWW-Authenticate');
  ctx.body = html
    ? identityErrorPage(ctx.req, ctx.res, { status: 429, code: error, message: description, nonce: securePage(ctx.req, ctx.res), fault: false })
    : { error, error_description: description };
}
