import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import supertest from 'supertest';
import pg from 'pg';
import { readConfig } from '../src/config.js';
import { createApiAndClient, startIdentity, type Harness } from './harness.js';

/** A GET with headers a client normally sets itself (Host) forged; no redirect followed. */
async function get(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const target = new URL(url);
  const res = await supertest(target.origin).get(`${target.pathname}${target.search}`).redirects(0).set(headers);
  return { status: res.status, headers: res.headers, body: res.text };
}

const FORGED = [
  ['a forged Host', { host: 'evil.test' }],
  ['forged X-Forwarded-Host and X-Forwarded-Proto', { 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' }],
  ['both', { host: 'evil.test:8443', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' }],
] as const;

const ENDPOINTS = ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint', 'introspection_endpoint', 'revocation_endpoint', 'end_session_endpoint'];

// Behind a proxy that forwards X-Forwarded-* (TRUST_PROXY) as well as directly exposed.
describe.each([
  ['directly exposed', 'false'],
  ['behind a trusted proxy', 'loopback'],
])('discovery, %s', (_name, trustProxy) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startIdentity({ TRUST_PROXY: trustProxy });
  });
  afterAll(() => h.close());

  it.each(FORGED)('publishes the configured public URL under %s', async (_label, headers) => {
    const res = await get(`${h.issuer}/.well-known/openid-configuration`, headers);
    expect(res.status).toBe(200);
    const meta = JSON.parse(res.body) as Record<string, string>;
    expect(meta['issuer']).toBe(h.issuer);
    const prefix = `${h.issuer}/protocol/openid-connect/`;
    for (const name of ENDPOINTS) expect({ [name]: meta[name]?.slice(0, prefix.length) }).toEqual({ [name]: prefix });
    expect(res.body).not.toContain('evil.test');
  });

  it('publishes the configured public URL to an absolute-form request target naming another host', async () => {
    // node:http itself: an HTTP client library always sends an origin-form target.
    const { port } = new URL(h.url);
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: 'http://evil.test/auth/realms/public/.well-known/openid-configuration', headers: { host: 'evil.test' } }, (r) => {
        let body = '';
        r.setEncoding('utf8');
        r.on('data', (chunk: string) => (body += chunk));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(200);
    expect((JSON.parse(res.body) as Record<string, string>)['token_endpoint']).toBe(`${h.issuer}/protocol/openid-connect/token`);
  });

  it('builds the URL the login page returns the browser to from the configured public URL, under a forged Host', async () => {
    const c = await createApiAndClient(h, { grants: 'authorization_code', redirectUri: 'http://127.0.0.1:9/cb' });
    const query = new URLSearchParams({
      client_id: c.clientId,
      response_type: 'code',
      scope: 'openid',
      redirect_uri: 'http://127.0.0.1:9/cb',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    const res = await get(`${h.issuer}/protocol/openid-connect/auth?${query.toString()}`, { host: 'evil.test', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' });
    expect(res.status).toBe(303);
    expect(String(res.headers.location)).not.toContain('evil.test');
    const db = new pg.Client({ connectionString: h.env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ return_to: string }>(`SELECT payload->>'returnTo' AS return_to FROM oidc_models WHERE model = 'Interaction'`);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.return_to.startsWith(`${h.issuer}/`)).toBe(true);
    } finally {
      await db.end();
    }
  });

  it('lets shared caches keep discovery and the JWKS for a short while', async () => {
    const discovery = await get(`${h.issuer}/.well-known/openid-configuration`, {});
    expect(discovery.headers['cache-control']).toBe('public, max-age=300');
    const jwks = await get(`${h.issuer}/protocol/openid-connect/certs`, {});
    expect(jwks.status).toBe(200);
    // Shorter than the time a new key is published before it signs (ADR 4): 2 × KEY_RELOAD_INTERVAL.
    const maxAge = Number(/^public, max-age=(\d+)$/.exec(String(jwks.headers['cache-control']))?.[1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(h.config.KEY_RELOAD_INTERVAL);
  });
});

describe('AUTH_URL', () => {
  const env = { MASTER_KEY: randomBytes(32).toString('hex') };

  it('is an origin: a path would be in the issuer but in none of the endpoints, which are served at the root', () => {
    expect(() => readConfig({ ...env, AUTH_URL: 'https://auth.example.com/identity' })).toThrow(/AUTH_URL/);
    expect(() => readConfig({ ...env, AUTH_URL: 'https://auth.example.com/?x=1' })).toThrow(/AUTH_URL/);
    expect(readConfig({ ...env, AUTH_URL: 'https://auth.example.com/' }).issuer).toBe('https://auth.example.com/auth/realms/public');
    expect(readConfig({ ...env, AUTH_URL: 'https://auth.example.com:8443' }).issuer).toBe('https://auth.example.com:8443/auth/realms/public');
  });
});

describe('INTERNAL_URL', () => {
  const env = { MASTER_KEY: randomBytes(32).toString('hex'), AUTH_URL: 'https://auth.example.com' };

  it('is where identity reaches itself: an origin like AUTH_URL, and AUTH_URL when unset', () => {
    expect(readConfig(env).internalUrl).toBe('https://auth.example.com');
    expect(readConfig({ ...env, INTERNAL_URL: 'http://127.0.0.1:8080/' }).internalUrl).toBe('http://127.0.0.1:8080');
    expect(() => readConfig({ ...env, INTERNAL_URL: 'http://127.0.0.1:8080/auth' })).toThrow(/INTERNAL_URL/);
    // The issuer stays the public one.
    expect(readConfig({ ...env, INTERNAL_URL: 'http://127.0.0.1:8080' }).issuer).toBe('https://auth.example.com/auth/realms/public');
  });
});
