import type { KoaContextWithOIDC } from 'oidc-provider';
import { jsonProblem, MalformedTextError, percentEncodedProblem } from '@hush/common';
import { renderError } from '../error-page.js';
import { readRequestBody } from '../request-body.js';

/**
 * The input layer's body check for oidc-provider's routes (the rules: @hush/common's input/text.ts;
 * the path and query of every request were checked before it reached the provider, by the app's
 * `textInput`). A form or JSON body is read before oidc-provider reads it, and one that is not
 * UTF-8, or holds a NUL or a lone surrogate, is refused as OAuth's `invalid_request` (400): JSON,
 * or the error page for a browser. oidc-provider would otherwise store such a parameter (an
 * interaction's `state` in jsonb) and fail there, as a 500. A body larger than oidc-provider
 * accepts is refused as it refuses one.
 */
export function requestText() {
  return async function refuseMalformedText(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    const kind = ctx.is('urlencoded', 'json');
    if (!kind) return next();
    const raw = await readRequestBody(ctx);
    if (raw === undefined) return refuse(ctx, 'failed to parse the request body');
    const problem = kind === 'json' ? jsonProblem(raw, ctx.request.charset || 'utf-8') : percentEncodedProblem(raw);
    if (problem) return refuse(ctx, new MalformedTextError('body', problem).message);
    return next();
  };
}

function refuse(ctx: KoaContextWithOIDC, description: string): void {
  ctx.status = 400;
  ctx.set('cache-control', 'no-store');
  const out = { error: 'invalid_request', error_description: description };
  if (ctx.accepts('json', 'html') === 'html') renderError(ctx, out);
  else ctx.body = out;
}
