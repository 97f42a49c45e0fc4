/** Scopes oidc-provider itself understands; every other scope belongs to exactly one API. */
export const OIDC_SCOPES: readonly string[] = ['openid', 'offline_access', 'profile', 'email'];

/** What an OpenID request gets without naming it: Keycloak's default client scopes that we have. */
export const DEFAULT_USER_SCOPES: readonly string[] = ['profile', 'email'];

type ScopeParams = { oidc: { params?: Record<string, unknown> } };

/**
 * As Keycloak's default client scopes: an authorization (or device, or pushed) request that
 * asks for `openid` also gets `profile` and `email` where the client may have them, so a
 * client that names only `openid` (keycloak-js does) still reads the user's name and e-mail.
 * The consent page lists them; a client registered without them gets nothing added.
 */
export async function withDefaultUserScopes(ctx: ScopeParams, scope: unknown, client?: { scope?: string | undefined }): Promise<void> {
  if (typeof scope !== 'string' || !ctx.oidc.params) return;
  const asked = scope.split(' ').filter(Boolean);
  if (!asked.includes('openid')) return;
  const allowed = client?.scope ? new Set(client.scope.split(' ')) : undefined;
  const added = DEFAULT_USER_SCOPES.filter((s) => !asked.includes(s) && (!allowed || allowed.has(s)));
  if (added.length > 0) ctx.oidc.params['scope'] = [...asked, ...added].join(' ');
}
