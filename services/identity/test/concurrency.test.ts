import pg from 'pg';
import { postForm } from '@hush/testing';
import { createApiAndClient, type Harness, identityPerFile, refreshGrant } from './harness.js';

let h: Harness;
let tokenUrl: string;
identityPerFile((started, token) => {
  h = started;
  tokenUrl = token;
});

describe('one-time artifacts under concurrency', () => {
  it('a refresh token redeemed 20 times at once works exactly once', async () => {
    const c = await createApiAndClient(h);
    const first = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret });
    const refreshToken = String(first.body['refresh_token']);
    const results = await Promise.all(Array.from({ length: 20 }, () => refreshGrant(tokenUrl, c, refreshToken)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(400);
      expect(r.body['error']).toBe('invalid_grant');
    }
  });
});

describe('expired artifacts', () => {
  it('are never served and are swept from the database', async () => {
    const c = await createApiAndClient(h);
    const first = await postForm(tokenUrl, { grant_type: 'client_credentials', scope: c.read, client_id: c.clientId, client_secret: c.clientSecret });
    const db = new pg.Client({ connectionString: h.env.DATABASE_URL });
    await db.connect();
    try {
      // Age every stored artifact past its expiry, as time would.
      await db.query(`UPDATE oidc_models SET expires_at = now() - interval '1 second'`);
      const refreshed = await refreshGrant(tokenUrl, c, String(first.body['refresh_token']));
      expect(refreshed.status).toBe(400);
      expect(refreshed.body['error']).toBe('invalid_grant');

      expect(await h.identity.sweep()).toBeGreaterThan(0);
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM oidc_models WHERE expires_at < now()`);
      expect(rows[0].n).toBe(0);
    } finally {
      await db.end();
    }
  });
});
