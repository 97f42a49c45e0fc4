import pg from 'pg';
import { bootstrapAdmin, startIdentity, type Harness } from '../harness.js';

/**
 * Promise: bad input is the caller's 4xx, never a 500. Text that is not UTF-8, or holds a NUL
 * character or a lone surrogate, is refused with 400 by identity's one input layer, wherever it
 * is put: the query, the path, a form or a JSON body; on oidc-provider's protocol routes (OAuth's
 * `invalid_request`, or its error page for a browser), the admin API (Keycloak's `errorMessage`
 * for a body) and the sign-in pages (the error page); and nothing is stored on the way.
 */

const NUL = '%00';
/** Percent-encoded bytes that are no UTF-8 text: a cut sequence, a byte UTF-8 never uses, an encoded surrogate, an overlong NUL. */
const NOT_UTF8 = ['%C3%28', '%FF', '%ED%A0%80', '%C0%80'];
const ENCODED = [NUL, ...NOT_UTF8];
/** The same problems inside JSON strings: NUL, lone surrogates (high, low, reversed pair). */
const JSON_ESCAPES = ['\\u0000', '\\ud800', '\\udc00', '\\ude00\\ud83d'];

let h: Harness;
let admin: string;
let db: pg.Client;
let app: { client_id: string };
const REDIRECT = 'http://127.0.0.1:9/cb';

beforeAll(async () => {
  h = await startIdentity();
  admin = await bootstrapAdmin(h);
  app = await h.cli('clients', 'create', '--name', 'app', '--public', '--grants', 'authorization_code', '--scopes', 'openid', '--redirect-uri', REDIRECT);
  db = new pg.Client({ connectionString: h.env['DATABASE_URL'] });
  await db.connect();
}, 60_000);
afterAll(async () => {
  await db?.end();
  await h?.close();
});

/** What the admin API's POSTs below could create, counted. */
const created = async () =>
  (
    await db.query<Record<string, number>>(
      'SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM organizations) AS orgs, (SELECT count(*)::int FROM roles) AS roles, (SELECT count(*)::int FROM clients) AS clients',
    )
  ).rows[0];
const stored = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM oidc_models')).rows[0]?.n;
const authQuery = () =>
  `client_id=${app.client_id}&redirect_uri=${encodeURIComponent(REDIRECT)}&response_type=code&scope=openid&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`;

async function answer(res: Response) {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // an HTML page
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', body };
}

describe('the authorization endpoint (anonymous)', () => {
  const params = ['state', 'nonce', 'login_hint', 'ui_locales', 'acr_values', 'redirect_uri', 'client_id', 'scope'];
  it.each(params.flatMap((p) => ENCODED.map((v) => [p, v] as const)))('%s=a%sb: 400 invalid_request, nothing stored', async (param, value) => {
    const before = await stored();
    const url = `${h.issuer}/protocol/openid-connect/auth?${authQuery()}&${param}=a${value}b`;
    const res = await answer(await fetch(url, { redirect: 'manual', headers: { accept: 'application/json' } }));
    expect(res).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await stored()).toBe(before);
  });

  it('a browser gets the error page, with the same status', async () => {
    const res = await answer(await fetch(`${h.issuer}/protocol/openid-connect/auth?${authQuery()}&state=a%00b`, { redirect: 'manual', headers: { accept: 'text/html' } }));
    expect(res.status).toBe(400);
    expect(res.type).toMatch(/^text\/html/);
    expect(res.body).toContain('invalid_request');
  });

  it.each(ENCODED)('the authorization request as a form POST, state=a%sb: 400', async (value) => {
    const res = await fetch(`${h.issuer}/protocol/openid-connect/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: `${authQuery()}&state=a${value}b`,
    });
    expect(await answer(res)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });
});

describe('the other protocol routes', () => {
  const form = (path: string, body: string) =>
    fetch(`${h.issuer}/protocol/openid-connect/${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body });
  const routes: [string, (v: string) => string][] = [
    ['token', (v) => `grant_type=client_credentials&client_id=a${v}&client_secret=x`],
    ['token', (v) => `grant_type=authorization_code&code=a${v}&client_id=${app.client_id}&redirect_uri=x&code_verifier=${'v'.repeat(43)}`],
    ['token/introspect', (v) => `token=a${v}&client_id=hush-admin&client_secret=x`],
    ['revoke', (v) => `token=a${v}&client_id=hush-admin&client_secret=x`],
    ['ext/par/request', (v) => `${authQuery()}&state=${v}&client_id=hush-admin&client_secret=x`],
    ['auth/device', (v) => `client_id=${app.client_id}&scope=openid${v}`],
    ['userinfo', (v) => `access_token=a${v}`],
    ['logout', (v) => `state=a${v}`],
  ];
  it.each(routes.flatMap(([path, body]) => ENCODED.map((v) => [path, v, body] as const)))('POST %s with %s in the form: 400 invalid_request', async (path, value, body) => {
    expect(await answer(await form(path, body(value)))).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it.each(ENCODED)('a query with %s on the discovery document, certs, userinfo and logout: 400', async (value) => {
    for (const path of ['/.well-known/openid-configuration', '/protocol/openid-connect/certs', '/protocol/openid-connect/userinfo', '/protocol/openid-connect/logout']) {
      const res = await fetch(`${h.issuer}${path}?x=a${value}`, { headers: { accept: 'application/json' } });
      expect({ path, ...(await answer(res)) }).toMatchObject({ path, status: 400, body: { error: 'invalid_request' } });
    }
  });

  it.each(JSON_ESCAPES)('a JSON body holding %s: 400 invalid_request', async (escape) => {
    const res = await fetch(`${h.issuer}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: `{"grant_type":"client_credentials","client_id":"a${escape}"}`,
    });
    expect(await answer(res)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it.each(ENCODED)('the device page: its query and its form with %s, as pages', async (value) => {
    const query = await fetch(`${h.issuer}/device?user_code=a${value}`, { headers: { accept: 'text/html' } });
    expect((await answer(query)).status).toBe(400);
    const posted = await fetch(`${h.issuer}/device`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: `user_code=a${value}`,
    });
    const res = await answer(posted);
    expect(res.status).toBe(400);
    expect(res.type).toMatch(/^text\/html/);
  });
});

describe('the admin API', () => {
  const call = (method: string, path: string, body?: string) =>
    fetch(`${h.url}/auth/admin/realms/public${path}`, {
      method,
      headers: { authorization: `Bearer ${admin}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body,
    }).then(answer);

  it('every query parameter of every route in its OpenAPI document, with NUL or bytes that are not UTF-8: 400', async () => {
    const doc = (await (await fetch(`${h.url}/auth/admin/realms/public/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    const failures: string[] = [];
    let tried = 0;
    for (const [template, methods] of Object.entries(doc.paths)) {
      const path = template.replace(/\{[^}]+\}/g, '00000000-0000-0000-0000-000000000000');
      for (const [method, operation] of Object.entries(methods)) {
        for (const param of (operation.parameters ?? []).filter((p) => p.in === 'query')) {
          for (const value of ENCODED) {
            tried++;
            const res = await call(method.toUpperCase(), `${path}?${param.name}=a${value}b`);
            if (res.status !== 400) failures.push(`${method} ${template}?${param.name}=a${value}b -> ${res.status}`);
          }
        }
      }
    }
    expect(tried).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  });

  it.each(['/users/a%00b', '/clients/a%00b', '/roles/a%00b', '/organizations/a%FFb'])('a path %s: 400', async (path) => {
    expect((await call('GET', path)).status).toBe(400);
  });

  const bodies: [string, (text: string) => string][] = [
    ['/users', (t) => `{"username":"fuzzed","firstName":"a${t}b"}`],
    ['/users', (t) => `{"username":"a${t}b"}`],
    ['/organizations', (t) => `{"name":"a${t}b"}`],
    ['/organizations', (t) => `{"name":"ok","description":"a${t}b"}`],
    ['/roles', (t) => `{"name":"ok-role","description":"a${t}b"}`],
    ['/clients', (t) => `{"clientId":"c-${t}"}`],
    ['/client-scopes', (t) => `{"name":"s${t}"}`],
  ];
  it.each(bodies.flatMap(([path, body]) => JSON_ESCAPES.map((e) => [path, e, body(e)] as const)))(
    'POST %s with %s in the JSON: 400 with errorMessage, nothing created',
    async (path, _e, body) => {
      const before = await created();
      const res = await call('POST', path, body);
      expect(res).toMatchObject({ status: 400, body: { errorMessage: expect.stringContaining('NUL characters or lone surrogates') } });
      expect(await created()).toEqual(before);
    },
  );

  it('a JSON body whose bytes are not UTF-8: 400', async () => {
    const res = await fetch(`${h.url}/auth/admin/realms/public/users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"username":"a'), Buffer.from([0xff]), Buffer.from('"}')]),
    });
    expect((await answer(res)).status).toBe(400);
  });
});

describe('the sign-in pages', () => {
  async function loginPage() {
    const started = await fetch(`${h.issuer}/protocol/openid-connect/auth?${authQuery()}&state=s`, { redirect: 'manual' });
    const cookie = started.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const location = new URL(started.headers.get('location')!, h.url).toString();
    const page = await (await fetch(location, { headers: { cookie } })).text();
    return { location, cookie, csrf: /name="csrf" value="([^"]+)"/.exec(page)![1]! };
  }

  it.each(ENCODED)('the login form with %s in the username: 400 error page', async (value) => {
    const { location, cookie, csrf } = await loginPage();
    const res = await fetch(`${location}/login`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', 'sec-fetch-site': 'same-origin' },
      body: `csrf=${encodeURIComponent(csrf)}&username=a${value}b&password=x`,
      redirect: 'manual',
    });
    const page = await answer(res);
    expect(page.status).toBe(400);
    expect(page.type).toMatch(/^text\/html/);
  });

  it.each(ENCODED)('a page asked with %s in its query or path: 400 error page', async (value) => {
    for (const url of [
      `${h.issuer}/login-actions/reset-credentials?interaction=a${value}`,
      `${h.issuer}/login-actions/a${value}`,
      `${h.url}/auth/realms/public/account?x=${value}`,
    ]) {
      const res = await answer(await fetch(url, { headers: { accept: 'text/html' }, redirect: 'manual' }));
      expect({ url, status: res.status, type: res.type }).toMatchObject({ url, status: 400, type: expect.stringMatching(/^text\/html/) });
    }
  });
});

describe('headers and cookies are never decoded into a 500', () => {
  const junk = ['%00', '%FF', '\u00ff\u00fe', 'a%C3%28'];
  it.each(junk)('cookies holding %j on the pages and protocol routes: no 5xx', async (value) => {
    const cookie = `_interaction=${value}; _interaction.sig=${value}; _session=${value}; hush_csrf=${value}; hush_console=${value}`;
    for (const url of [`${h.issuer}/protocol/openid-connect/auth?${authQuery()}`, `${h.issuer}/login-actions/x`, `${h.url}/auth/realms/public/account`, `${h.issuer}/device`]) {
      const res = await fetch(url, { headers: { cookie }, redirect: 'manual' });
      await res.text();
      expect({ url, status: res.status }).toEqual({ url, status: expect.any(Number) });
      expect(res.status).toBeLessThan(500);
    }
  });

  it.each(['a\u0000b', 'a%00b'])('HTTP Basic client credentials whose id holds %j: 400 invalid_request', async (id) => {
    const basic = `Basic ${Buffer.from(`${id}:secret`).toString('base64')}`;
    const res = await fetch(`${h.issuer}/protocol/openid-connect/token`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(await answer(res)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });
});
