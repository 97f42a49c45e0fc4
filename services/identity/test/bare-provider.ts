import { generateKeyPair, exportJWK, type JWK } from 'jose';
import Provider, { type Adapter, type AdapterPayload, type ClientMetadata, type Configuration } from 'oidc-provider';
import supertest from 'supertest';
import type { Middleware } from '../src/oidc/keycloak/middlewares.js';
import { ROUTES } from '../src/oidc/routes.js';

export const ISSUER = 'http://localhost:3000/auth/realms/public';

/** A confidential client of the bare provider, allowed the client-credentials grant only. */
export const APP: ClientMetadata = {
  client_id: 'app',
  client_secret: 'app-secret',
  grant_types: ['client_credentials'],
  response_types: [],
  redirect_uris: [],
  token_endpoint_auth_method: 'client_secret_post',
  web_origins: ['https://app.test'],
};

export const APP_FORM = { client_id: 'app', client_secret: 'app-secret' };

/** oidc-provider's artifacts in a Map (its own memory adapter would warn on every provider built). */
class MapAdapter implements Adapter {
  private static readonly stored = new Map<string, AdapterPayload>();
  constructor(private readonly model: string) {}
  private key(id: string) {
    return `${this.model}:${id}`;
  }
  async upsert(id: string, payload: AdapterPayload) {
    MapAdapter.stored.set(this.key(id), payload);
  }
  async find(id: string) {
    return MapAdapter.stored.get(this.key(id));
  }
  async findByUserCode(userCode: string) {
    return [...MapAdapter.stored.values()].find((p) => p.userCode === userCode);
  }
  async findByUid(uid: string) {
    return [...MapAdapter.stored.values()].find((p) => p.uid === uid);
  }
  async consume(id: string) {
    const payload = MapAdapter.stored.get(this.key(id));
    if (payload) payload.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    MapAdapter.stored.delete(this.key(id));
  }
  async revokeByGrantId(grantId: string) {
    for (const [key, payload] of MapAdapter.stored) if (payload.grantId === grantId) MapAdapter.stored.delete(key);
  }
}

let signingKey: Promise<JWK> | undefined;
/** One RS256 key for every bare provider of a test file. */
export function bareSigningKey(): Promise<JWK> {
  signingKey ??= generateKeyPair('RS256', { extractable: true }).then(async ({ privateKey }) => ({ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'bare' }));
  return signingKey;
}

/**
 * oidc-provider with its in-memory adapter, Keycloak's paths, the client above and the
 * middlewares `middlewares` returns (outermost first): the real library, without the database, for the tests of one
 * middleware. Requests go through HTTP (supertest).
 */
export async function bareProvider(middlewares: (provider: Provider) => Middleware[], configuration: Configuration = {}) {
  const provider = new Provider(ISSUER, {
    adapter: MapAdapter,
    clients: [APP],
    jwks: { keys: [await bareSigningKey()] },
    cookies: { keys: ['bare cookie key'] },
    routes: ROUTES,
    extraClientMetadata: { properties: ['web_origins'] },
    ...configuration,
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      ...configuration.features,
    } as Configuration['features'],
  });
  for (const middleware of middlewares(provider)) provider.use(middleware);
  return { provider, request: supertest(provider.callback()) };
}
