/**
 * What the consent page says each scope gives the client (Keycloak's "consent screen text" of a
 * client scope): what a person can judge, not the scope's name.
 */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  openid: 'Know that it is you (your account’s identifier)',
  profile: 'Your name and username',
  email: 'Your e-mail address, and whether it is confirmed',
  offline_access: 'Keep access while you are signed out (offline access)',
  'secrets:read': 'See the secrets you shared and read secrets shared with you',
  'secrets:write': 'Share and burn secrets in your name',
};

export interface ScopeLine {
  scope: string;
  description: string;
}

/** The consent page's lines: each scope by its description; an API scope without one names its API. */
export function describeScopes(oidcScopes: readonly string[], resourceScopes: Readonly<Record<string, readonly string[]>>): ScopeLine[] {
  const lines = oidcScopes.map((scope) => ({ scope, description: DESCRIPTIONS[scope] ?? scope }));
  for (const [api, scopes] of Object.entries(resourceScopes))
    for (const scope of scopes) lines.push({ scope, description: DESCRIPTIONS[scope] ?? `Use ${api} in your name (${scope})` });
  return lines;
}
