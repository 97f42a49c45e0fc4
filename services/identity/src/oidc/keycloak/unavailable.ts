import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { DependencyUnavailableError, reportUnavailable, toDomainError, type Logger } from '@hush/common';

type Render = (ctx: KoaContextWithOIDC, out: { error: string; error_description: string }) => void;

/** The outage a request failed on, as the `server_error` event left it on the request's context. */
interface UnavailableState {
  unavailable?: DependencyUnavailableError;
}

/**
 * Protocol requests that failed because the database or Redis is out answer 503
 * `temporarily_unavailable` (RFC 6749 §4.1.2.1) with Retry-After, not oidc-provider's 500
 * `server_error`, and the outage is logged once (see @hush/common's outage log).
 *
 * oidc-provider catches every error inside its routes and renders any unexpected one as
 * `server_error`, announcing it with the `server_error` event; this middleware, outermost, finds
 * the response of such a request still a 500 (not redirected to the client) and answers it anew.
 * An outage thrown past oidc-provider's routes (by a middleware below this one) is answered the same.
 */
export function answerUnavailable(provider: Provider, logger: Logger, render: Render) {
  provider.on('server_error', (ctx: KoaContextWithOIDC, err: unknown) => {
    const known = toDomainError(err);
    if (known instanceof DependencyUnavailableError) (ctx.state as UnavailableState).unavailable = known;
  });
  return async function unavailable(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    let known: DependencyUnavailableError | undefined;
    try {
      await next();
      known = (ctx.state as UnavailableState).unavailable;
      if (!known || ctx.status !== 500) return;
    } catch (err) {
      // A middleware of ours that writes after oidc-provider's route (a refresh token issued by
      // client-credentials-refresh.ts, stored through the batched writer) fails outside the
      // route's own error handling: an outage there is as much a 503 as one inside it.
      const thrown = toDomainError(err);
      if (!(thrown instanceof DependencyUnavailableError)) throw err;
      known = thrown;
    }
    reportUnavailable(logger, known, ctx.res);
    ctx.status = known.status;
    ctx.set(known.headers);
    const out = { error: 'temporarily_unavailable', error_description: known.message };
    if (ctx.accepts('json', 'html') === 'html') render(ctx, out);
    else ctx.body = out;
  };
}
