import type Provider from 'oidc-provider';
import type { JWK } from 'jose';
import type { KeyRing, Logger } from '@hush/common';
import type { ProviderDeps } from './provider-deps.js';
import { buildProvider } from './provider.js';
import { envelopeKeys, type EnvelopeKeys } from './token-envelope.js';

type ProviderListener = ReturnType<Provider['callback']>;

export interface ProtocolDeps extends Omit<ProviderDeps, 'jwks' | 'envelopeKeys'> {
  /** The signing keys, private parts included, and the fingerprint of the published set. */
  keys: { privateJwks(): Promise<JWK[]>; fingerprint(): Promise<string> };
  refreshEnvelopeKey: KeyRing;
  logger: Logger;
}

/**
 * The provider's life: there is no runtime key swap in oidc-provider, so a new key set means a new
 * Provider instance. All of its state lives in PostgreSQL, so swapping instances between requests
 * loses nothing. Until the first `useKeys`, protocol requests are answered 503.
 */
export function createProtocol(deps: ProtocolDeps) {
  let provider: Provider | undefined;
  let listener: ProviderListener = notStarted;
  // The envelope keys of the provider last built (the account REST API opens access tokens with them).
  let envelopesInUse: EnvelopeKeys | undefined;
  // The published key set as `kid:status,...`, as last loaded; '' until started.
  let fingerprint = '';
  const built: ((provider: Provider, jwks: JWK[]) => Provider | void)[] = [];

  const useKeys = async (current: string) => {
    const jwks = await deps.keys.privateJwks();
    const envelopes = await envelopeKeys(deps.config.issuer, jwks, deps.refreshEnvelopeKey);
    let next = buildProvider({ ...deps, jwks, envelopeKeys: envelopes });
    for (const each of built) next = each(next, jwks) ?? next;
    envelopesInUse = envelopes;
    provider = next;
    listener = next.callback();
    fingerprint = current;
  };

  return {
    /** Called with each provider built (and its keys), before it serves: metrics, events, the admin API's verifier. */
    onBuilt(each: (provider: Provider, jwks: JWK[]) => Provider | void): void {
      built.push(each);
    },
    provider: (): Provider => {
      if (!provider) throw new Error('identity app not started');
      return provider;
    },
    envelopeKeys: (): EnvelopeKeys => {
      if (!envelopesInUse) throw new Error('identity app not started');
      return envelopesInUse;
    },
    /** The request listener of the current provider (503 before start). */
    listener: (): ProviderListener => listener,
    fingerprint: (): string => fingerprint,
    async start(): Promise<void> {
      await useKeys(await deps.keys.fingerprint());
    },
    /** Rebuilds the provider when the published key set changed; true if it did. */
    async reloadKeys(): Promise<boolean> {
      const current = await deps.keys.fingerprint();
      if (current === fingerprint) return false;
      await useKeys(current);
      deps.logger.info({ keys: current }, 'signing keys reloaded');
      return true;
    },
  };
}

export type Protocol = ReturnType<typeof createProtocol>;

/** Protocol requests before start(): the provider does not exist yet. */
const notStarted: ProviderListener = async (_req, res) => {
  res.statusCode = 503;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ error: 'temporarily_unavailable', error_description: 'starting' }));
};
