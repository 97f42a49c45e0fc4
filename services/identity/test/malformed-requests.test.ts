import { postForm } from '@hush/testing';
import { basic, identityAndClientPerFile, type ApiClient, type Harness } from './harness.js';

// Requests the fuzzer (test/faults/test/fuzz.test.ts) found answered 500: each is the caller's
// mistake, so each gets the protocol's 4xx. A NUL character in a form is refused by the input
// layer (400 invalid_request) before any lookup: test/security/bad-input.test.ts covers every route.

let h: Harness;
let c: ApiClient;
identityAndClientPerFile((started, client) => {
  h = started;
  c = client;
});

describe('a client id PostgreSQL cannot store (a NUL character) is refused as a malformed request', () => {
  it.each(['token', 'token/introspect', 'revoke'])('%s, client_secret_post', async (route) => {
    const res = await postForm(`${h.issuer}/protocol/openid-connect/${route}`, {
      grant_type: 'client_credentials',
      scope: c.read,
      token: 'x',
      client_id: '\u0000',
      client_secret: 'secret',
    });
    expect({ status: res.status, error: res.body['error'] }).toEqual({ status: 400, error: 'invalid_request' });
  });

  it('and does not fail the lookups of other clients made at the same time', async () => {
    const token = (clientId: string, clientSecret: string) =>
      postForm(`${h.issuer}/protocol/openid-connect/token`, { grant_type: 'client_credentials', scope: c.read, client_id: clientId, client_secret: clientSecret });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? token('\u0000', 'secret') : token(c.clientId, c.clientSecret))));
    expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 10 }, (_, i) => (i % 2 ? 400 : 200)));
  });
});

describe('a token PostgreSQL cannot store (a NUL character) is refused as a malformed request', () => {
  it.each(['token/introspect', 'revoke'])('%s of a token with a NUL', async (route) => {
    const res = await postForm(
      `${h.issuer}/protocol/openid-connect/${route}`,
      { token: `abc\u0000def`, token_type_hint: 'refresh_token' },
      { authorization: basic(c.clientId, c.clientSecret) },
    );
    expect({ status: res.status, error: res.body['error'] }).toEqual({ status: 400, error: 'invalid_request' });
  });

  it('a refresh_token grant with a NUL in the token', async () => {
    const res = await postForm(
      `${h.issuer}/protocol/openid-connect/token`,
      { grant_type: 'refresh_token', refresh_token: `abc\u0000def` },
      { authorization: basic(c.clientId, c.clientSecret) },
    );
    expect({ status: res.status, error: res.body['error'] }).toEqual({ status: 400, error: 'invalid_request' });
  });

  it('userinfo with a NUL in an opaque access token', async () => {
    const res = await fetch(`${h.issuer}/protocol/openid-connect/userinfo`, { headers: { authorization: 'Bearer abc%00def' } });
    expect(res.status).toBe(401);
  });
});
