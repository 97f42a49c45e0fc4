import type { KoaContextWithOIDC } from 'oidc-provider';
import { errorPage, securePage } from '@hush/common';

/** oidc-provider's `renderError`: its error page, for requests that accept HTML (the others get its JSON). */
export function renderError(ctx: KoaContextWithOIDC, out: { error?: string; error_description?: string }): void {
  ctx.type = 'html';
  ctx.body = errorPage({ status: ctx.status, code: out.error ?? 'error', message: out.error_description ?? '', nonce: securePage(ctx.req, ctx.res) });
}
