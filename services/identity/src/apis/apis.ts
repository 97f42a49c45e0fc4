import { InvalidInputError } from '../errors.js';
import type { Api, ApisRepository } from './apis.repository.js';

const SCOPE = /^[A-Za-z0-9][A-Za-z0-9:._\-/]{0,127}$/;
const RESERVED = new Set(['openid', 'offline_access', 'profile', 'email']);
/** The longest access token lifetime an API may have (seconds): how long a revocation must be remembered (ADR 10). */
export const MAX_ACCESS_TOKEN_TTL = 86400;

/** What the API use-cases may reach. Wired in context.ts. */
export interface ApisDeps {
  apis: ApisRepository;
}

export async function createApi(
  deps: Pick<ApisDeps, 'apis'>,
  input: { identifier: string; name?: string | undefined; scopes: string[]; accessTokenTtl?: number | undefined },
): Promise<Api> {
  // RFC 8707: a resource indicator is an absolute URI without a fragment.
  if (!URL.canParse(input.identifier) || input.identifier.includes('#')) {
    throw new InvalidInputError('identifier must be an absolute URI without a fragment, e.g. https://secrets.example.com/api');
  }
  const scopes = [...new Set(input.scopes)];
  if (scopes.length === 0) throw new InvalidInputError('an API needs at least one scope');
  const bad = scopes.filter((s) => !SCOPE.test(s) || RESERVED.has(s));
  if (bad.length > 0) throw new InvalidInputError(`invalid scope name(s): ${bad.join(', ')}`);
  const ttl = input.accessTokenTtl ?? 300;
  if (!Number.isInteger(ttl) || ttl < 30 || ttl > MAX_ACCESS_TOKEN_TTL) throw new InvalidInputError(`access token TTL must be 30 to ${MAX_ACCESS_TOKEN_TTL} seconds`);
  // Scope names are unique across APIs, so a Keycloak-style request with only `scope` names one API.
  const taken = (await deps.apis.findOwnersOfScopes(scopes)).flatMap((a) => a.scopes.filter((s) => scopes.includes(s)));
  if (taken.length > 0) throw new InvalidInputError(`scope(s) already belong to another API: ${taken.join(', ')}`);
  return deps.apis.create({ identifier: input.identifier, name: input.name ?? input.identifier, scopes, accessTokenTtl: ttl });
}
