import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { allowFormTarget, securePage } from '@hush/common';
import { loggedOutPage, logoutPage } from '../login/index.js';
import { HINTED_CONFIRM_PARAM } from './keycloak/hinted-logout.js';

type RpInitiatedLogout = NonNullable<NonNullable<Configuration['features']>['rpInitiatedLogout']>;

/**
 * RP-initiated logout as Keycloak answers it:
 * - with a valid `id_token_hint` of the person signed in here (oidc-provider has checked its
 *   signature and audience, and the `post_logout_redirect_uri` against the hint's client), the
 *   sign-out happens at once, without a confirmation page: the answer is a redirect to
 *   oidc-provider's own confirmation with its one-time xsrf secret (keycloak/hinted-logout.ts
 *   turns that GET into the POST oidc-provider takes), which ends the session and redirects to
 *   the client, as keycloak-js's `logout()` expects;
 * - without a hint, or with one of another person, the confirmation page stays: a link alone
 *   must not sign anyone out. Its form may post on to the client's logout URI.
 */
export function rpInitiatedLogout(): RpInitiatedLogout {
  return {
    enabled: true,
    logoutSource: (ctx, form) => {
      const secret = hintedSecret(ctx);
      if (secret) {
        const confirm = new URL(ctx.oidc.urlFor('end_session_confirm'));
        confirm.searchParams.set(HINTED_CONFIRM_PARAM, secret);
        ctx.set('cache-control', 'no-store');
        ctx.redirect(confirm.href);
        ctx.status = 303;
        return;
      }
      const nonce = securePage(ctx.req, ctx.res);
      allowFormTarget(ctx.req, ctx.res, ctx.oidc.params?.['post_logout_redirect_uri']);
      ctx.body = logoutPage(form, nonce);
    },
    postLogoutSuccessSource: (ctx) => {
      ctx.body = loggedOutPage(securePage(ctx.req, ctx.res));
    },
  };
}

/** The logout's xsrf secret when the request carries a (validated) ID token hint of the session's person. */
function hintedSecret(ctx: KoaContextWithOIDC): string | undefined {
  const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: unknown } } | undefined;
  const accountId = ctx.oidc.session?.accountId;
  const secret = (ctx.oidc.session?.state as { secret?: unknown } | undefined)?.secret;
  if (!hint?.payload || !accountId || hint.payload.sub !== accountId || typeof secret !== 'string') return undefined;
  return secret;
}
