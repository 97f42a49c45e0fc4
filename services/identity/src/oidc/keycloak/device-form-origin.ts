import type { KoaContextWithOIDC } from 'oidc-provider';
import { CrossOriginFormError, isCrossOrigin, sendErrorPage } from '@hush/common';
import { identityErrorPage } from '../../pages/index.js';
import { ROUTES } from '../routes.js';

/** A POST of the device code form that a browser says came from another site: the cross-origin page, not oidc-provider. */
export function deviceFormOrigin(publicOrigin: string) {
  return async function sameOriginDeviceForm(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
    if (ctx.method === 'POST' && ctx.path === ROUTES.code_verification && isCrossOrigin(ctx.req, [publicOrigin])) {
      ctx.respond = false;
      const refused = new CrossOriginFormError();
      sendErrorPage(ctx.req, ctx.res, { status: refused.status, code: refused.code, message: 'errors.formRefused' }, identityErrorPage);
      return;
    }
    return next();
  };
}
