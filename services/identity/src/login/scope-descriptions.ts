import type { PageMessages } from '../pages/index.js';

/**
 * What the consent page says each scope gives the client (Keycloak's "consent screen text" of a
 * client scope): what a person can judge, not the scope's name. A scope without a text of its
 * own names its API.
 */
const KEYS = {
  openid: 'consent.scope.openid',
  profile: 'consent.scope.profile',
  email: 'consent.scope.email',
  offline_access: 'consent.scope.offlineAccess',
  'secrets:read': 'consent.scope.secretsRead',
  'secrets:write': 'consent.scope.secretsWrite',
} as const;

export interface ScopeLine {
  scope: string;
  description: string;
}

const keyOf = (scope: string) => (Object.hasOwn(KEYS, scope) ? KEYS[scope as keyof typeof KEYS] : undefined);

/** The consent page's lines, in the page's language. */
export function describeScopes(m: PageMessages, oidcScopes: readonly string[], resourceScopes: Readonly<Record<string, readonly string[]>>): ScopeLine[] {
  const describe = (scope: string, api?: string) => {
    const key = keyOf(scope);
    return { scope, description: key ? m.text(key) : api ? m.text('consent.scope.api', { api, scope }) : scope };
  };
  return [...oidcScopes.map((scope) => describe(scope)), ...Object.entries(resourceScopes).flatMap(([api, scopes]) => scopes.map((scope) => describe(scope, api)))];
}
