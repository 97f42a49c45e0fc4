import { randomBytes } from 'node:crypto';
import { KeyRing } from '@hush/common';
import { Redis } from 'ioredis';
import { importJWK, SignJWT, type JWTPayload } from 'jose';
import { testRedisUrl, uniquePrefix } from '@hush/testing';
import { bareProvider, bareSigningKey, ISSUER } from '../../../test/bare-provider.js';
import { accessTokenLiveness } from '../../revocations/access-token-liveness.js';
import { Revocations } from '../../revocations/revocations.js';
import { ROUTES } from '../routes.js';
import { accessTokenEnvelope, envelopeKeys } from '../token-envelope.js';
import { keycloakUserinfo } from './userinfo.js';

let redis: Redis;
beforeAll(() => {
  redis = new Redis(testRedisUrl, { maxRetriesPerRequest: 1 });
});
afterAll(() => redis.disconnect());

const now = () => Math.floor(Date.now() / 1000);

/** An API access token of client `app`, with Keycloak's `typ` claim unless told otherwise. */
async function apiToken(claims: JWTPayload): Promise<string> {
  const jwk = await bareSigningKey();
  return new SignJWT({ client_id: 'app', typ: 'Bearer', sub: 'not-a-user-id', jti: randomBytes(16).toString('hex'), ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: jwk.kid, typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setIssuedAt(now())
    .setExpirationTime(now() + 300)
    .sign(await importJWK(jwk, 'RS256'));
}

async function withUserinfo() {
  const keys = await envelopeKeys(ISSUER, [await bareSigningKey()], KeyRing.of(randomBytes(32)));
  const revocations = new Revocations(uniquePrefix('userinfo-test').slice(0, -1), redis);
  // No user exists: the refusals below are decided before, or by, the lookup of the token's user.
  const users = { findById: async () => undefined };
  const bare = await bareProvider((provider) => [keycloakUserinfo(() => keys, users, accessTokenLiveness(provider, revocations))], { features: { userinfo: { enabled: true } } });
  const userinfo = (token: string) => bare.request.get(ROUTES.userinfo).set('Authorization', `Bearer ${token}`);
  return { ...bare, keys, revocations, userinfo };
}

describe('keycloakUserinfo', () => {
  it('when the bearer value is not a JWT, then 401 invalid_token: access tokens are only handed out in envelopes', async () => {
    const { userinfo } = await withUserinfo();
    const res = await userinfo('a'.repeat(43));
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it("when an envelope is valid, then its stored token goes on to oidc-provider's userinfo", async () => {
    const { userinfo, keys } = await withUserinfo();
    const envelope = await accessTokenEnvelope(
      keys,
      'RS256',
      { id: 'c'.repeat(43), clientId: 'app', accountId: 'x', scope: 'openid', sid: undefined, iat: now(), exp: now() + 60 },
      { typ: 'Bearer' },
    );
    const res = await userinfo(envelope);
    // oidc-provider's own answer for an id it does not have.
    expect(res.status).toBe(401);
    expect(res.body.error_description).toBe('invalid token provided');
  });

  it('when an API access token does not carry openid, then 403 insufficient_scope', async () => {
    const { userinfo } = await withUserinfo();
    const res = await userinfo(await apiToken({ scope: 'read' }));
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
  });

  it("when it is not an access token (typ), revoked, or not a user's, then 401 invalid_token", async () => {
    const { userinfo, revocations } = await withUserinfo();
    expect((await userinfo(await apiToken({ scope: 'openid read', typ: 'ID' }))).body.error_description).toBe('not an access token');
    const revoked = await apiToken({ scope: 'openid read', jti: 'revoked-jti' });
    await revocations.revokeToken('revoked-jti', now() + 300);
    expect((await userinfo(revoked)).body.error_description).toBe('access token revoked');
    expect((await userinfo(await apiToken({ scope: 'openid read' }))).body.error_description).toBe('associated account not found');
  });
});
