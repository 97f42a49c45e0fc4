import type { KoaContextWithOIDC } from 'oidc-provider';
import { securePage } from '@hush/common';
import { identityErrorPage } from '../pages/index.js';

/**
 * oidc-provider's `renderError`: identity's error page (its header, the request's language) with
 * OAuth's error code and description, for requests that accept HTML (the others get its JSON). A
 * `server_error` is a fault: its page says only that something failed.
 */
export function renderError(ctx: KoaContextWithOIDC, out: { error?: string; error_description?: string }): void {
  const nonce = securePage(ctx.req, ctx.res);
  const fault = ctx.status >= 500 && out.error === 'server_error';
  ctx.type = 'html';
  ctx.body = identityErrorPage(ctx.req, ctx.res, { status: ctx.status, code: out.error ?? 'error', message: fault ? 'errors.fault' : (out.error_description ?? ''), nonce, fault });
}
