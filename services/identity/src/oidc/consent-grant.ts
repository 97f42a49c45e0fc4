import type { Grant, KoaContextWithOIDC } from 'oidc-provider';
import { clientMetadata } from './client-metadata.js';

/** What a person allowed a client: OpenID scopes, and each API's scopes by its identifier. */
export interface Consent {
  scopes: string[];
  resourceScopes: Record<string, string[]>;
}

/** Where a person's answers on the consent page are kept until revoked (login/consents.repository.ts). */
export interface ConsentMemory {
  remembered(userId: string, clientId: string): Promise<Consent | undefined>;
}

type ResourceServers = Record<string, { scopes?: ReadonlySet<string> }>;

/**
 * oidc-provider's `loadExistingGrant`, as Keycloak decides consent:
 * - a client that does not require consent (`consentRequired` false: first-party clients, the
 *   consoles) is granted what it asks for, with no consent page;
 * - a client that requires it is granted what the person allowed it before (remembered per person
 *   and client, across sessions and browsers, until revoked); anything more is asked on the
 *   consent page, which shows only what is missing.
 * The grant of this browser session (or of the consent just given) is extended, not replaced.
 */
export function grantLoader(consents: ConsentMemory) {
  return async function loadExistingGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
    const { client, session, result, provider, account } = ctx.oidc;
    if (!client || !account) return undefined;
    const consentGrantId = (result?.['consent'] as { grantId?: string } | undefined)?.grantId;
    const grantId = consentGrantId ?? session?.grantIdFor(client.clientId);
    const existing = grantId ? await provider.Grant.find(grantId) : undefined;
    const asked = requested(ctx);
    const consentRequired = clientMetadata(client)['consent_required'] === true;
    const allowed = consentRequired ? within(asked, await consents.remembered(account.accountId, client.clientId)) : asked;
    const claims = consentRequired ? [] : [...(ctx.oidc.requestParamClaims ?? [])];
    const grant = existing ?? new provider.Grant({ clientId: client.clientId, accountId: account.accountId });
    if (!addMissing(grant, allowed, claims)) return existing;
    await grant.save();
    return grant;
  };
}

/** The scopes this request asks for: OpenID ones, and per API (resource server) the API's scopes among them. */
function requested(ctx: KoaContextWithOIDC): Consent {
  const scopes = [...(ctx.oidc.requestParamScopes ?? [])];
  const servers = (ctx.oidc.resourceServers ?? {}) as ResourceServers;
  return {
    scopes: [...(ctx.oidc.requestParamOIDCScopes ?? [])],
    resourceScopes: Object.fromEntries(Object.entries(servers).map(([indicator, server]) => [indicator, scopes.filter((s) => server.scopes?.has(s))])),
  };
}

/** What of `asked` a remembered consent covers. */
export function within(asked: Consent, remembered: Consent | undefined): Consent {
  if (!remembered) return { scopes: [], resourceScopes: {} };
  return {
    scopes: asked.scopes.filter((s) => remembered.scopes.includes(s)),
    resourceScopes: Object.fromEntries(
      Object.entries(asked.resourceScopes).map(([api, scopes]) => [api, scopes.filter((s) => (remembered.resourceScopes[api] ?? []).includes(s))]),
    ),
  };
}

/** Adds to the grant what `allowed` has and it lacks; true when anything was added. */
function addMissing(grant: Grant, allowed: Consent, claims: string[]): boolean {
  const has = new Set(grant.getOIDCScopeEncountered().split(' '));
  const scopes = allowed.scopes.filter((s) => !has.has(s));
  let added = false;
  if (scopes.length > 0) {
    grant.addOIDCScope(scopes.join(' '));
    added = true;
  }
  for (const [api, wanted] of Object.entries(allowed.resourceScopes)) {
    const held = new Set(grant.getResourceScopeEncountered(api).split(' '));
    const missing = wanted.filter((s) => !held.has(s));
    if (missing.length > 0) {
      grant.addResourceScope(api, missing.join(' '));
      added = true;
    }
  }
  const heldClaims = new Set(grant.getOIDCClaimsEncountered());
  const missingClaims = claims.filter((c) => !heldClaims.has(c));
  if (missingClaims.length > 0) {
    grant.addOIDCClaims(missingClaims);
    added = true;
  }
  return added;
}
