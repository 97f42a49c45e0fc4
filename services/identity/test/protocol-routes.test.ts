import request from 'supertest';
import { postForm } from '@hush/testing';
import { createApiAndClient, identityPerFile, type Harness } from './harness.js';

// oidc-provider's protocol routes are served without Express (src/oidc/direct-dispatch.ts); what
// every request gets under Express must still be there.

let h: Harness;
let tokenUrl: string;
identityPerFile((started, token) => {
  h = started;
  tokenUrl = token;
});

describe('protocol routes outside Express', () => {
  it('a token response carries the caller’s request id, and the request is logged under it with its path and status', async () => {
    const c = await createApiAndClient(h);
    const res = await postForm(
      tokenUrl,
      { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret },
      { 'x-request-id': 'req-direct-1' },
    );
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('req-direct-1');
    await new Promise((r) => setTimeout(r, 20));
    const line = h.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l['reqId'] === 'req-direct-1');
    expect(line).toMatchObject({ method: 'POST', path: '/auth/realms/public/protocol/openid-connect/token', status: 200 });
  });

  it('a request id that is not sane is replaced by a fresh one', async () => {
    const res = await request(h.issuer).get('/protocol/openid-connect/certs').set('x-request-id', 'bad id <script>');
    expect(res.status).toBe(200);
    expect(res.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('token requests and their errors are counted in /metrics under the token route', async () => {
    const c = await createApiAndClient(h);
    await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret });
    await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: 'wrong' });
    const metrics = (await request(h.managementUrl).get('/metrics')).text;
    expect(metrics).toMatch(/http_requests_total\{method="POST",route="\/auth\/realms\/public\/protocol\/openid-connect\/token",status="200"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/http_requests_total\{method="POST",route="\/auth\/realms\/public\/protocol\/openid-connect\/token",status="401"[^}]*\} [1-9]/);
    expect(metrics).toMatch(/hush_identity_tokens_issued_total\{grant_type="client_credentials"[^}]*\} [1-9]/);
  });

  it('discovery still names the protocol endpoints under the realm path', async () => {
    const res = await request(h.issuer).get('/.well-known/openid-configuration');
    const body = res.body as Record<string, string>;
    expect(res.get('x-request-id')).toEqual(expect.any(String));
    expect(body['token_endpoint']).toBe(tokenUrl);
    expect(body['issuer']).toBe(h.issuer);
  });

  it('other paths still go through Express: an unknown path is its JSON 404', async () => {
    const res = await request(h.url).get('/no/such/path');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', error_description: 'no such endpoint' });
  });
});
