import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * A grant type the client may not use is `unauthorized_client` (RFC 6749 §5.2), as Keycloak
 * answers; oidc-provider refuses it as `invalid_request`. The refusal is recognised by what the
 * request was, not by oidc-provider's wording: an `invalid_request` at the token endpoint for a
 * client that has been identified, naming one grant type that client may not use. oidc-provider
 * checks the grant type right after authenticating the client, and no later check can fail for a
 * grant type the client may not use, so nothing else answers that. Called by the token-response
 * middleware (keycloak/token-responses.ts) on the answers it leaves alone.
 */
export function answerUnauthorizedClient(ctx: KoaContextWithOIDC): void {
  if (ctx.status !== 400 || ctx.oidc?.route !== 'token') return;
  const body = ctx.body as { error?: unknown } | undefined;
  const client = ctx.oidc.client;
  const grantType = ctx.oidc.params?.grant_type;
  if (body?.error !== 'invalid_request' || !client || typeof grantType !== 'string' || client.grantTypeAllowed(grantType)) return;
  body.error = 'unauthorized_client';
}
