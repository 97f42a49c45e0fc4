import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from 'jose';
import { AccessTokenVerifier } from '../src/auth/access-tokens.js';
import { IdentityUnavailableError, RevocationsUnavailableError } from '../src/errors.js';
import type { RevocationStatus } from '../src/revocations/revocation-feed.js';

/**
 * The claim checks of the verifier, against a JWKS served over real HTTP by this test (identity
 * cannot be asked to sign bad tokens). The end-to-end path with identity is in auth.test.ts.
 */
const ISSUER = 'https://id.example.test/auth/realms/public';
const AUDIENCE = 'https://secrets.example.test/api/v1';
let privateKey: CryptoKey;
let verifier: AccessTokenVerifier;
/** What the revocation feed answers (revocation-feed.test.ts and revocations.test.ts cover the feed itself). */
let revocation: RevocationStatus = 'valid';
const feed = { status: () => revocation, addressStatus: () => revocation };
afterEach(() => {
  revocation = 'valid';
});
let server: ReturnType<typeof createServer>;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  privateKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  verifier = new AccessTokenVerifier({ jwksUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/certs`, issuer: ISSUER, audience: AUDIENCE }, feed);
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const now = () => Math.floor(Date.now() / 1000);
const claims = { iss: ISSUER, aud: AUDIENCE, client_id: 'app', sub: 'app', scope: 'secrets:read secrets:write' };
function sign(overrides: Record<string, unknown> = {}, header: { typ?: string; alg?: string } = {}, exp = now() + 300) {
  return new SignJWT({ ...claims, ...overrides, exp }).setProtectedHeader({ alg: header.alg ?? 'ES256', typ: header.typ ?? 'at+jwt', kid: 'k1' }).sign(privateKey);
}

it('accepts a good client-credentials token: custid = client_id, scopes from `scope`', async () => {
  const p = await verifier.verify(await sign());
  expect(p).toMatchObject({ custid: 'app', via: 'client_token' });
  expect([...(p?.scopes ?? [])]).toEqual(['secrets:read', 'secrets:write']);
});

it('a user token: custid = username', async () => {
  expect(await verifier.verify(await sign({ sub: 'uuid-1', username: 'alice', preferred_username: 'alice' }))).toMatchObject({ custid: 'alice', via: 'user_token' });
});

it.each([
  ['another issuer', { iss: 'https://evil.example/auth/realms/public' }],
  ['another audience', { aud: 'https://other.example/api' }],
  ['no client_id', { client_id: undefined }],
])('refuses %s', async (_name, overrides) => {
  expect(await verifier.verify(await sign(overrides))).toBeUndefined();
});

it('refuses an expired token', async () => {
  expect(await verifier.verify(await sign({}, {}, now() - 120))).toBeUndefined();
});

it('refuses a token that is not typ at+jwt (an ID token, for instance)', async () => {
  expect(await verifier.verify(await sign({}, { typ: 'JWT' }))).toBeUndefined();
});

it('an unreachable JWKS is a 503, not a 401 (the caller is not at fault)', async () => {
  const offline = new AccessTokenVerifier({ jwksUrl: 'http://127.0.0.1:9/certs', issuer: ISSUER, audience: AUDIENCE }, feed);
  await expect(offline.verify(await sign())).rejects.toBeInstanceOf(IdentityUnavailableError);
});

it('refuses a token the revocation feed says is revoked', async () => {
  revocation = 'revoked';
  expect(await verifier.verify(await sign())).toBeUndefined();
});

it('a good token while the revocation feed is out of sync is a 503, not a 401', async () => {
  revocation = 'unknown';
  await expect(verifier.verify(await sign())).rejects.toBeInstanceOf(RevocationsUnavailableError);
});
