import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { securePage } from '@hush/common';
import { deviceConfirmPage, deviceInputPage, deviceSuccessPage } from '../login/index.js';
import { localeOfMessage, pageMessages, type PageKey, type PageMessages } from '../pages/index.js';

/**
 * RFC 8628's device authorization grant as Keycloak serves it: the device asks at
 * `…/protocol/openid-connect/auth/device`, the person opens `…/device` (Keycloak's verification
 * URI), enters the code, confirms it, signs in and consents on our usual pages, and the device's
 * polling at the token endpoint then gets tokens. Only clients whose grant types include
 * `urn:ietf:params:oauth:grant-type:device_code` may start it. oidc-provider runs the protocol;
 * this module renders its three pages on our layout; keycloak/device-form-origin.ts refuses form
 * posts a browser says came from another site (its own `xsrf` field is the token; see login/device.views.ts).
 */
export const DEVICE_CODE_TTL = 600;

type DeviceFlow = NonNullable<NonNullable<Configuration['features']>['deviceFlow']>;

/** The form's `xsrf` value, from the form oidc-provider built (its only source). */
const xsrfOf = (form: string) => /name="xsrf" value="([^"]*)"/.exec(form)?.[1] ?? '';

const INPUT_ERRORS: Record<string, PageKey> = {
  NoCodeError: 'device.errors.noCode',
  NotFoundError: 'device.errors.notFound',
  ExpiredError: 'device.errors.expired',
  AlreadyUsedError: 'device.errors.alreadyUsed',
  AbortedError: 'device.errors.aborted',
};

/** The pages' words, in the request's language (pages/page-locale.ts), named in Content-Language. */
function wordsOf(ctx: KoaContextWithOIDC): PageMessages {
  const m = pageMessages(localeOfMessage(ctx.req));
  ctx.set('Content-Language', m.locale);
  return m;
}

export function deviceFlowFeature(): DeviceFlow {
  return {
    enabled: true,
    charset: 'base-20',
    mask: '****-****',
    userCodeInputSource: (ctx, form, _out, err) => {
      if (err) keepUnsavedSessionUnsaved(ctx);
      const nonce = securePage(ctx.req, ctx.res);
      const m = wordsOf(ctx);
      const error = err ? m.text(INPUT_ERRORS[err.name] ?? 'device.errors.other') : undefined;
      const userCode = err && 'userCode' in err && typeof err.userCode === 'string' ? err.userCode : undefined;
      ctx.type = 'html';
      ctx.body = deviceInputPage({ m, action: ctx.oidc.urlFor('code_verification'), xsrf: xsrfOf(form), userCode, error, nonce });
    },
    userCodeConfirmSource: (ctx, form, client, _deviceInfo, userCode) => {
      const nonce = securePage(ctx.req, ctx.res);
      ctx.type = 'html';
      ctx.body = deviceConfirmPage({
        m: wordsOf(ctx),
        action: ctx.oidc.urlFor('code_verification'),
        xsrf: xsrfOf(form),
        userCode,
        clientName: client.clientName ?? client.clientId,
        nonce,
      });
    },
    successSource: (ctx) => {
      const nonce = securePage(ctx.req, ctx.res);
      ctx.type = 'html';
      ctx.body = deviceSuccessPage({ m: wordsOf(ctx), clientName: ctx.oidc.client?.clientName ?? ctx.oidc.client?.clientId, nonce });
    },
  };
}

/**
 * oidc-provider re-renders the code form of a failed post with a fresh `xsrf` in the session, once
 * its session middleware has already finished; its last step then saves a session so changed,
 * which fails for one that was never stored (a post that came without a session: no cookie, an
 * expired one, a client that is not a browser) and turns the answer into a 500. Such a session is
 * left unstored: the person is shown the error on a form that starts again from a fresh page, and
 * a post from no session creates no row.
 */
function keepUnsavedSessionUnsaved(ctx: KoaContextWithOIDC): void {
  const session = ctx.oidc.session as { exp?: unknown; touched?: boolean } | undefined;
  if (session && typeof session.exp !== 'number') session.touched = false;
}
