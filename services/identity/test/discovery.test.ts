import { createPublicKey } from 'node:crypto';
import * as oidc from 'openid-client';
import request from 'supertest';
import { postForm } from '@hush/testing';
import { createApiAndClient, startIdentity, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(() => h.close());

describe('discovery at the Keycloak path', () => {
  it('publishes every endpoint under /auth/realms/public/protocol/openid-connect', async () => {
    const res = await request(h.issuer).get('/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    const meta = res.body as Record<string, unknown>;
    const p = `${h.issuer}/protocol/openid-connect`;
    expect(meta).toMatchObject({
      issuer: h.issuer,
      authorization_endpoint: `${p}/auth`,
      token_endpoint: `${p}/token`,
      jwks_uri: `${p}/certs`,
      userinfo_endpoint: `${p}/userinfo`,
      introspection_endpoint: `${p}/token/introspect`,
      revocation_endpoint: `${p}/revoke`,
      end_session_endpoint: `${p}/logout`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(meta['grant_types_supported']).toEqual(expect.arrayContaining(['authorization_code', 'client_credentials', 'implicit', 'refresh_token']));
    expect(meta['response_types_supported']).toEqual(expect.arrayContaining(['code', 'id_token token']));
    expect(meta['token_endpoint_auth_methods_supported']).toEqual(expect.arrayContaining(['client_secret_basic', 'client_secret_post']));
    expect(meta['token_endpoint_auth_methods_supported']).not.toContain('client_secret_jwt');
  });

  it('is what openid-client discovers', async () => {
    const config = await oidc.discovery(new URL(h.issuer), 'anyone', undefined, undefined, { execute: [oidc.allowInsecureRequests] });
    expect(config.serverMetadata().issuer).toBe(h.issuer);
  });

  it('publishes public keys only', async () => {
    const jwks = (await request(h.issuer).get('/protocol/openid-connect/certs')).body as { keys: Record<string, unknown>[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
    for (const key of jwks.keys) {
      expect(key).toMatchObject(key['alg'] === 'RS256' ? { kty: 'RSA', use: 'sig' } : { kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
      for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) expect(key[secret]).toBeUndefined();
    }
    expect(jwks.keys.map((k) => k['alg']).sort()).toEqual(['ES256', 'RS256']);
  });

  it('offers RS256 (OpenID Connect Discovery requires it) and ES256 for ID tokens', async () => {
    const meta = (await request(h.issuer).get('/.well-known/openid-configuration')).body as Record<string, unknown>;
    expect(meta['id_token_signing_alg_values_supported']).toEqual(expect.arrayContaining(['RS256', 'ES256']));
  });

  it("publishes PAR at Keycloak's path, and still answers at Hush's earlier one", async () => {
    const meta = (await request(h.issuer).get('/.well-known/openid-configuration')).body as Record<string, unknown>;
    expect(meta['pushed_authorization_request_endpoint']).toBe(`${h.issuer}/protocol/openid-connect/ext/par/request`);
    const c = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: 'http://127.0.0.1:9/cb' });
    const form = { client_id: c.clientId, client_secret: c.clientSecret, response_type: 'code', scope: 'openid', redirect_uri: 'http://127.0.0.1:9/cb' };
    for (const path of ['/protocol/openid-connect/ext/par/request', '/request']) {
      const res = await postForm(`${h.issuer}${path}`, form);
      expect(res.status).toBe(201);
      expect(res.body['request_uri']).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    }
  });

  it("serves Keycloak's realm document at the realm's root, with the RS256 public key", async () => {
    const res = await request(h.issuer).get('');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      realm: 'public',
      public_key: expect.stringMatching(/^MII[A-Za-z0-9+/=]+$/),
      'token-service': `${h.issuer}/protocol/openid-connect`,
      'account-service': `${h.issuer}/account`,
      'tokens-not-before': 0,
    });
    const key = createPublicKey({ key: Buffer.from(res.body.public_key as string, 'base64'), format: 'der', type: 'spki' });
    expect(key.asymmetricKeyType).toBe('rsa');
  });
});

describe('service endpoints', () => {
  it('answers /healthz and /readyz on the management port', async () => {
    const live = await request(h.managementUrl).get('/healthz');
    expect([live.status, live.body]).toEqual([200, { status: 'ok', redis: 'ok' }]);
    const ready = await request(h.managementUrl).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', database: 'ok', keys: 'ok' });
  });

  it('exposes Prometheus metrics: requests per route and tokens issued', async () => {
    const c = await createApiAndClient(h);
    await postForm(`${h.issuer}/protocol/openid-connect/token`, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret });
    const res = await request(h.managementUrl).get('/metrics');
    expect(res.status).toBe(200);
    const text = res.text;
    expect(text).toMatch(/hush_identity_tokens_issued_total\{[^}]*grant_type="client_credentials"[^}]*\} [1-9]/);
    expect(text).toMatch(/http_requests_total\{[^}]*route="\/auth\/realms\/public\/protocol\/openid-connect\/token"/);
    // One active key per algorithm (RS256, ES256).
    expect(text).toMatch(/hush_identity_signing_keys\{[^}]*status="active"[^}]*\} 2/);
    expect(text).toContain('process_cpu_seconds_total');
  });

  it('answers /metrics, /healthz and /readyz with 404 on the public port', async () => {
    for (const path of ['/metrics', '/healthz', '/readyz']) expect((await request(h.url).get(path)).status).toBe(404);
  });

  it('adds no metric series for 1,000 requests to random undecodable paths: they all count as `unmatched`', async () => {
    const httpSeries = async () => (await request(h.managementUrl).get('/metrics')).text.split('\n').filter((line) => line.startsWith('http_'));
    const paths = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const junk = `%ff${i}${Math.random().toString(36).slice(2)}`;
        const realm = '/auth/realms/public';
        return [`${realm}/protocol/openid-connect/${junk}`, `${realm}/protocol/openid-connect/auth/${junk}/x`, `${realm}/${junk}`, `/AUTH/Realms/public/${junk}`, `/${junk}`][
          i % 5
        ] as string;
      });
    // Each kind of answer once first, so that every series these requests can make exists.
    for (const path of paths(10)) await request(h.url).get(path);
    const before = await httpSeries();
    const batch = paths(1000);
    for (let i = 0; i < batch.length; i += 50) await Promise.all(batch.slice(i, i + 50).map((path) => request(h.url).get(path)));
    const after = await httpSeries();
    expect(after.length).toBe(before.length);
    expect(after.filter((line) => line.includes('%ff'))).toEqual([]);
  });

  it('answers unknown paths with a JSON 404 and a request id', async () => {
    const res = await request(h.url).get('/nope').set('x-request-id', 'trace-123');
    expect(res.status).toBe(404);
    expect(res.get('x-request-id')).toBe('trace-123');
    expect(res.body).toMatchObject({ error: 'not_found' });
  });
});
