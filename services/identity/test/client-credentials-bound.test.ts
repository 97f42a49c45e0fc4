import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { postForm } from '@hush/testing';
import { createApiAndClient, type Harness, refreshGrant, startIdentity } from './harness.js';

let h: Harness;
let tokenUrl: string;
let db: pg.Client;
beforeAll(async () => {
  h = await startIdentity();
  tokenUrl = `${h.issuer}/protocol/openid-connect/token`;
  db = new pg.Client({ connectionString: h.env.DATABASE_URL });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await h.close();
});

/** Stored grants and refresh tokens of one client, by model. */
async function rowsOf(clientId: string): Promise<Record<string, number>> {
  const { rows } = await db.query<{ model: string; n: number }>(
    `SELECT model, count(*)::int AS n FROM oidc_models WHERE payload->>'clientId' = $1 AND model IN ('Grant', 'RefreshToken') GROUP BY model`,
    [clientId],
  );
  return Object.fromEntries(rows.map((r) => [r.model, r.n]));
}

describe('refresh tokens from the client-credentials grant under sustained traffic', () => {
  it('after 200 requests the client has one grant and one refresh token per API, and the newest works', async () => {
    const c = await createApiAndClient(h);
    const form = { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret };
    for (let burst = 0; burst < 20; burst++) {
      const answers = await Promise.all(Array.from({ length: 10 }, () => postForm(tokenUrl, form)));
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    }
    const previous = await postForm(tokenUrl, form);
    const newest = await postForm(tokenUrl, form);

    expect(await rowsOf(c.clientId)).toEqual({ Grant: 1, RefreshToken: 1 });

    const refreshed = await refreshGrant(tokenUrl, c, String(newest.body['refresh_token']));
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ scope: c.read, refresh_token: expect.any(String) as string });
    // Each request's refresh token replaces the one before.
    const replaced = await refreshGrant(tokenUrl, c, String(previous.body['refresh_token']));
    expect(replaced.status).toBe(400);
    expect(replaced.body['error']).toBe('invalid_grant');
  });

  it('a client of two APIs keeps a working refresh token for each', async () => {
    const suffix = randomBytes(4).toString('hex');
    const [a, b] = [`https://a-${suffix}.example.com`, `https://b-${suffix}.example.com`];
    await h.cli('apis', 'create', a, '--scopes', `a-${suffix}`);
    await h.cli('apis', 'create', b, '--scopes', `b-${suffix}`);
    const client = await h.cli<{ client_id: string; client_secret: string }>(
      'clients',
      'create',
      '--name',
      `two ${suffix}`,
      '--grants',
      'client_credentials,refresh_token',
      '--scopes',
      `a-${suffix},b-${suffix}`,
    );
    const auth = { client_id: client.client_id, client_secret: client.client_secret };
    const forA = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: `a-${suffix}`, ...auth });
    const forB = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: `b-${suffix}`, ...auth });

    for (const [token, scope] of [
      [forA.body['refresh_token'], `a-${suffix}`],
      [forB.body['refresh_token'], `b-${suffix}`],
    ] as const) {
      const refreshed = await postForm(tokenUrl, { grant_type: 'refresh_token', refresh_token: String(token), ...auth });
      expect(refreshed.status).toBe(200);
      expect(refreshed.body['scope']).toBe(scope);
    }
    expect(await rowsOf(client.client_id)).toMatchObject({ Grant: 2 });
  });
});
