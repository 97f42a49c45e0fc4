import { startIdentity, type Harness } from './harness.js';

/**
 * The device code form (`…/device`) answers every method and body a client can send with a 2xx
 * to 4xx, never a 5xx: with or without the session its page set, with its form token or without.
 */
let h: Harness;
let page: { cookie: string; xsrf: string };

beforeAll(async () => {
  h = await startIdentity();
  const res = await fetch(`${h.issuer}/device`);
  const html = await res.text();
  page = {
    cookie: res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
    xsrf: /name="xsrf" value="([^"]+)"/.exec(html)?.[1] ?? '',
  };
});
afterAll(() => h.close());

const FORM = 'application/x-www-form-urlencoded';
const bodies = (xsrf: string): [string, string | undefined, string | undefined][] => [
  ['no body', undefined, undefined],
  ['an empty form', FORM, ''],
  ['an unrelated field', FORM, 'a=b'],
  ['a code without the form token', FORM, 'user_code=BCDF-GHJK'],
  ['a wrong form token', FORM, 'xsrf=nope&user_code=BCDF-GHJK'],
  ['the form token and no code', FORM, `xsrf=${xsrf}`],
  ['the form token and an unknown code', FORM, `xsrf=${xsrf}&user_code=BCDF-GHJK`],
  ['a confirmation of an unknown code', FORM, `xsrf=${xsrf}&user_code=BCDF-GHJK&confirm=yes`],
  ['an abort of an unknown code', FORM, `xsrf=${xsrf}&user_code=BCDF-GHJK&abort=yes`],
  ['a repeated code', FORM, `xsrf=${xsrf}&user_code=A&user_code=B`],
  ['a repeated form token', FORM, `xsrf=${xsrf}&xsrf=${xsrf}&user_code=A`],
  ['a code of 10 kB', FORM, `xsrf=${xsrf}&user_code=${'A'.repeat(10_000)}`],
  ['percent-escapes that decode to nothing', FORM, `xsrf=%ZZ&user_code=%E0%A4%A`],
  ['JSON', 'application/json', JSON.stringify({ xsrf, user_code: 'BCDF-GHJK' })],
  ['malformed JSON', 'application/json', '{"xsrf":'],
  ['plain text', 'text/plain', 'hello'],
  ['a multipart form', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="user_code"\r\n\r\nBCDF\r\n--x--\r\n'],
  ['a form in an unknown charset', `${FORM}; charset=klingon`, 'user_code=A'],
  ['binary bytes', 'application/octet-stream', '\u0000\u00ff\u00fe'],
];

describe('POST /device', () => {
  for (const withSession of [false, true]) {
    it.each(bodies('XSRF'))(`${withSession ? 'with' : 'without'} the page's session, %s: 4xx or 2xx, never 5xx`, async (_name, type, body) => {
      const headers: Record<string, string> = { accept: 'text/html' };
      if (type) headers['content-type'] = type;
      if (withSession) headers['cookie'] = page.cookie;
      const res = await fetch(`${h.issuer}/device`, { method: 'POST', headers, body: body?.replace('XSRF', page.xsrf), redirect: 'manual' });
      await res.text();
      expect(res.status).toBeLessThan(500);
    });
  }
});

describe('other methods on /device', () => {
  it.each(['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('%s: 4xx or 2xx, never 5xx', async (method) => {
    const res = await fetch(`${h.issuer}/device?user_code=BCDF-GHJK`, { method, redirect: 'manual' });
    await res.text();
    expect(res.status).toBeLessThan(500);
  });
});
