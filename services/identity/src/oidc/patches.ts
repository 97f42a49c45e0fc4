import Provider from 'oidc-provider';
import { compareAndCheck } from '../clients/index.js';
import type { ClientAuthLimits } from '../clients/index.js';

/**
 * The methods of oidc-provider's models we replace, because no setting of its public
 * configuration does what they must. Each is checked when it is installed (a missing method or a
 * changed arity stops the start-up), and patches.test.ts fails when the installed oidc-provider is
 * not the version they were written against: read the replaced method again before changing it.
 *
 * - `Client#compareClientSecret`: stored secrets are SHA-256 hashes (clients/client-secret.ts),
 *   compared by hash while the failure counters are read (clients/client-auth-failures.ts);
 *   oidc-provider compares the stored value with the presented one as they are.
 * - `Client#includeSid`: Keycloak puts the session id (`sid`) in every token of a session, for
 *   every client; oidc-provider only for clients registered for back-channel logout.
 * - `Client.Schema#invalidate`: oidc-provider refuses http and localhost redirect URIs of
 *   implicit-flow clients; Hush's one rule (clients/redirect-uris.ts, applied when a client is
 *   created) allows http on the loopback host for development, as Keycloak. Its two checks are
 *   named by code so that they can defer to that rule.
 * - `Session#ensureClientContainer`: every client's `sid` in a browser session is the session's
 *   `uid` (oidc-provider draws a random one per client here, its one place that assigns it), so
 *   all tokens and `session_state` of a session carry one value (session-state.ts).
 */
export const PATCHED_VERSION = '9.13.3';

export interface PatchDeps {
  failures: ClientAuthLimits;
}

type Method = (this: never, ...args: never[]) => unknown;
type Target = 'Client' | 'Client.Schema' | 'Session';

export interface Patch {
  target: Target;
  method: string;
  /** The replaced method's declared parameter count (`Function#length`). */
  arity: number;
  replacement(original: Method, deps: PatchDeps): Method;
}

type SecretHolder = { clientId: string; clientSecret: string };
type SchemaLike = unknown;
type SessionWithClients = { uid: string; sidFor(clientId: string, value?: string): string | undefined };

function hashedSecretCompare(_original: Method, deps: PatchDeps): Method {
  function compareClientSecret(this: SecretHolder, actual: string): Promise<boolean> {
    return compareAndCheck(deps.failures, Provider.ctx, this.clientId, actual, this.clientSecret);
  }
  return compareClientSecret;
}

function sidInEveryToken(): Method {
  function includeSid(): boolean {
    return true;
  }
  return includeSid;
}

function deferImplicitRedirectRules(original: Method): Method {
  const invalidate = original as unknown as (this: SchemaLike, message: string, code?: string) => void;
  function deferToHushRule(this: SchemaLike, message: string, code?: string): void {
    if (code === 'implicit-force-https' || code === 'implicit-forbid-localhost') return;
    invalidate.call(this, message, code);
  }
  return deferToHushRule;
}

function oneSidPerSession(): Method {
  function ensureClientContainer(this: SessionWithClients, clientId: string): void {
    if (!this.sidFor(clientId)) this.sidFor(clientId, this.uid);
  }
  return ensureClientContainer;
}

export const PATCHES: readonly Patch[] = [
  { target: 'Client', method: 'compareClientSecret', arity: 1, replacement: hashedSecretCompare },
  { target: 'Client', method: 'includeSid', arity: 0, replacement: sidInEveryToken },
  { target: 'Client.Schema', method: 'invalidate', arity: 2, replacement: deferImplicitRedirectRules },
  { target: 'Session', method: 'ensureClientContainer', arity: 1, replacement: oneSidPerSession },
];

/** The prototype a patch replaces a method of, in this provider instance (each has its own model classes). */
export function patchedPrototype(provider: Provider, target: Target): Record<string, unknown> {
  const models = provider as unknown as { Client: { prototype: object; Schema: { prototype: object } }; Session: { prototype: object } };
  const proto = target === 'Client' ? models.Client.prototype : target === 'Session' ? models.Session.prototype : models.Client.Schema.prototype;
  return proto as Record<string, unknown>;
}

/** The method a patch replaces, as oidc-provider defines it; throws when it is not the one the patch was written for. */
export function originalMethod(provider: Provider, patch: Patch): Method {
  const original = patchedPrototype(provider, patch.target)[patch.method];
  if (typeof original !== 'function' || original.name !== patch.method || original.length !== patch.arity) {
    throw new Error(`oidc-provider changed ${patch.target}#${patch.method} (expected a method of ${patch.arity} parameters): review oidc/patches.ts`);
  }
  return original as Method;
}

export function applyPatches(provider: Provider, deps: PatchDeps): void {
  for (const patch of PATCHES) {
    const replacement = patch.replacement(originalMethod(provider, patch), deps);
    patchedPrototype(provider, patch.target)[patch.method] = replacement;
  }
}
