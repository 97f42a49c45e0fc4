/** Scopes oidc-provider itself understands; every other scope belongs to exactly one API. */
export const OIDC_SCOPES: readonly string[] = ['openid', 'offline_access', 'profile', 'email'];
