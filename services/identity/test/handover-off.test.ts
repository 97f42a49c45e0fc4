import request from 'supertest';
import { bootstrapAdmin, startIdentity, type Harness } from './harness.js';

// Without SECRETS_URL and HANDOVER_CLIENT_SECRET, credential handover is off: a call asking for it
// is refused before anything changes, and calls without it answer as Keycloak's.

const ADMIN = '/auth/admin/realms/public';
let h: Harness;
let token: string;

beforeAll(async () => {
  h = await startIdentity();
  token = await bootstrapAdmin(h);
}, 60_000);
afterAll(() => h?.close());

describe('credential handover when it is not configured', () => {
  it('refuses a client creation with handoverTo (400) and creates nothing', async () => {
    const res = await request(h.url)
      .post(`${ADMIN}/clients`)
      .query({ handoverTo: 'owner@example.com' })
      .auth(token, { type: 'bearer' })
      .send({ clientId: 'off-svc', serviceAccountsEnabled: true });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errorMessage: expect.stringMatching(/not configured/) });
    expect((await request(h.url).get(`${ADMIN}/clients`).query({ clientId: 'off-svc' }).auth(token, { type: 'bearer' })).body).toEqual([]);
  });

  it('answers a rotation without handoverTo as Keycloak does: the new secret in the body, no receipt', async () => {
    await request(h.url).post(`${ADMIN}/clients`).auth(token, { type: 'bearer' }).send({ clientId: 'plain-svc', serviceAccountsEnabled: true }).expect(201);
    const [client] = (await request(h.url).get(`${ADMIN}/clients`).query({ clientId: 'plain-svc' }).auth(token, { type: 'bearer' })).body as { id: string }[];
    const res = await request(h.url).post(`${ADMIN}/clients/${client?.id}/client-secret`).auth(token, { type: 'bearer' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ type: 'secret', value: expect.any(String) });
    expect(res.headers['hush-handover']).toBeUndefined();
  });

  it('still requires a password value in reset-password without handoverTo', async () => {
    const created = await request(h.url).post(`${ADMIN}/users`).auth(token, { type: 'bearer' }).send({ username: 'off-user' });
    const id = String(created.headers['location']).split('/').pop();
    const res = await request(h.url).put(`${ADMIN}/users/${id}/reset-password`).auth(token, { type: 'bearer' }).send({ type: 'password', temporary: false });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errorMessage: 'value is required' });
  });
});
