import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { importJWK, SignJWT } from 'jose';
import { capturingLogger, testRedisUrl, uniquePrefix } from '@hush/testing';
import { APP_FORM, bareProvider, bareSigningKey, ISSUER } from '../../../test/bare-provider.js';
import { Revocations } from '../../revocations/revocations.js';
import { ROUTES } from '../routes.js';
import { jwtTokenEndpoints } from './jwt-token-endpoints.js';

let redis: Redis;
beforeAll(() => {
  redis = new Redis(testRedisUrl, { maxRetriesPerRequest: 1 });
});
afterAll(() => redis.disconnect());

/** An access token as oidc-provider signs one for an API (RFC 9068). */
async function accessToken(clientId: string): Promise<string> {
  const jwk = await bareSigningKey();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ client_id: clientId, scope: 'read' })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setSubject(clientId)
    .setJti(randomBytes(16).toString('hex'))
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .sign(await importJWK(jwk, 'RS256'));
}

async function withEndpoints() {
  const revocations = new Revocations(uniquePrefix('jwt-endpoints-test').slice(0, -1), redis);
  const jwks = [await bareSigningKey()];
  const { logger } = capturingLogger('jwt-token-endpoints-test');
  // These tokens claim no address, so no account is looked up (test/security/verified-address.test.ts does).
  const users = { findById: () => Promise.resolve(undefined) };
  return bareProvider((provider) => [jwtTokenEndpoints({ provider, issuer: ISSUER, jwks, revocations, users, logger })]);
}

describe('jwtTokenEndpoints', () => {
  it("when a client introspects its live JWT access token, then it is active with the token's claims", async () => {
    const { request } = await withEndpoints();
    const res = await request
      .post(ROUTES.introspection)
      .type('form')
      .send({ ...APP_FORM, token: await accessToken('app') });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ active: true, client_id: 'app', token_type: 'Bearer', scope: 'read' });
  });

  it('when the client revokes it, then 200 and it is no longer active', async () => {
    const { request } = await withEndpoints();
    const token = await accessToken('app');
    expect(
      (
        await request
          .post(ROUTES.revocation)
          .type('form')
          .send({ ...APP_FORM, token })
      ).status,
    ).toBe(200);
    const res = await request
      .post(ROUTES.introspection)
      .type('form')
      .send({ ...APP_FORM, token });
    expect(res.body).toEqual({ active: false });
  });

  it("when a confidential client revokes another client's token, then 400 invalid_request", async () => {
    const { request } = await withEndpoints();
    const res = await request
      .post(ROUTES.revocation)
      .type('form')
      .send({ ...APP_FORM, token: await accessToken('other') });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('when the token is not ours, then it is not active', async () => {
    const { request } = await withEndpoints();
    const res = await request
      .post(ROUTES.introspection)
      .type('form')
      .send({ ...APP_FORM, token: 'e30.e30.sig' });
    expect(res.body).toEqual({ active: false });
  });
});
