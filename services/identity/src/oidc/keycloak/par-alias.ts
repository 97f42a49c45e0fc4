import type { KoaContextWithOIDC } from 'oidc-provider';
import { LEGACY_PAR_PATH, ROUTES } from '../routes.js';

/** Pushed authorization requests are at Keycloak's path; Hush's earlier one stays an alias of it. */
export async function parAlias(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  if (ctx.path === LEGACY_PAR_PATH) ctx.path = ROUTES.pushed_authorization_request;
  await next();
}
