import pg from 'pg';
import { startIdentity, type Harness } from './harness.js';

/**
 * Requests from no one signed in store nothing: every page identity serves, asked 40 times, 8 at
 * once, by visitors with no cookie or with the cookies the page gave them, leaves oidc-provider's
 * table (sessions, interactions, every other artifact) as it was. A save is awaited before the
 * answer (the adapter's group commit), so one stored row would show after a single request; the
 * requests at once are for races. The device page's and the logout page's forms still work:
 * their sessions travel in a sealed cookie (oidc/anonymous-sessions.ts).
 */
const REQUESTS_PER_PAGE = 40;
const CONCURRENCY = 8;

let h: Harness;
let db: pg.Client;

beforeAll(async () => {
  h = await startIdentity();
  db = new pg.Client({ connectionString: h.env['DATABASE_URL'] });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await h.close();
});

const rows = async () => (await db.query<{ model: string; n: number }>('SELECT model, count(*)::int AS n FROM oidc_models GROUP BY model ORDER BY model')).rows;
const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

async function runAll(count: number, send: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await send(next++);
    }),
  );
}

describe('anonymous requests', () => {
  const pages = [
    '/device',
    '/device?user_code=BCDF-GHJK',
    '/protocol/openid-connect/logout',
    '/protocol/openid-connect/logout?state=s&client_id=nosuch',
    '/protocol/openid-connect/logout/success',
    '/protocol/openid-connect/auth',
    '/protocol/openid-connect/auth?client_id=nosuch&response_type=code&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&scope=openid',
    '/protocol/openid-connect/login-status-iframe.html',
    '/protocol/openid-connect/3p-cookies/step1.html',
    '/protocol/openid-connect/3p-cookies/step2.html',
    '/login-actions/nosuch',
    '/.well-known/openid-configuration',
    '',
  ];

  it.each(pages)(
    `%s, asked ${REQUESTS_PER_PAGE} times with no cookie or its own, stores nothing`,
    async (page) => {
      const before = await rows();
      let cookie = '';
      await runAll(REQUESTS_PER_PAGE, async (i) => {
        const res = await fetch(`${h.issuer}${page}`, { redirect: 'manual', headers: i % 2 && cookie ? { cookie } : {} });
        await res.text();
        expect(res.status).toBeLessThan(500);
        cookie ||= cookiesOf(res);
      });
      expect(await rows()).toEqual(before);
    },
    60_000,
  );

  it('the device form from a page with no session behind it still verifies its token (a wrong code is refused as such), and stores nothing', async () => {
    const before = await rows();
    const page = await fetch(`${h.issuer}/device`);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
    const post = (token: string) =>
      fetch(`${h.issuer}/device`, {
        method: 'POST',
        headers: { cookie: cookiesOf(page), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ xsrf: token, user_code: 'BCDF-GHJK' }).toString(),
      }).then(async (res) => ({ status: res.status, html: await res.text() }));
    const valid = await post(xsrf);
    expect(valid.html).toContain('That code is not valid');
    const forged = await post('forged');
    expect(forged.html).not.toContain('That code is not valid');
    expect(await rows()).toEqual(before);
  });
});
