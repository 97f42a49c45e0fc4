import type { Configuration } from 'oidc-provider';
import { allowFormTarget, securePage } from '@hush/common';
import { loggedOutPage, logoutPage } from '../interactions/views.js';

type RpInitiatedLogout = NonNullable<NonNullable<Configuration['features']>['rpInitiatedLogout']>;

/** RP-initiated logout on our pages: the confirmation form may post on to the client's logout URI. */
export function rpInitiatedLogout(): RpInitiatedLogout {
  return {
    enabled: true,
    logoutSource: (ctx, form) => {
      const nonce = securePage(ctx.req, ctx.res);
      allowFormTarget(ctx.req, ctx.res, ctx.oidc.params?.['post_logout_redirect_uri']);
      ctx.body = logoutPage(form, nonce);
    },
    postLogoutSuccessSource: (ctx) => {
      ctx.body = loggedOutPage(securePage(ctx.req, ctx.res));
    },
  };
}
