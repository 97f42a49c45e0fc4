import { Agent, request as httpRequest } from 'node:http';
import { postForm } from '@hush/testing';
import { createApiAndClient, startIdentity, basic as clientBasic, type Harness as IdentityHarness } from '../../../services/identity/test/harness.js';
import { startSecrets, type Harness as SecretsHarness } from '../../../services/secrets/test/harness.js';
import { clientToken, userToken } from '../../../services/secrets/test/identity.js';
import { LEGACY_PAR_PATH, ROUTES } from '../../../services/identity/src/oidc/routes.js';

/**
 * A fixed-seed fuzzer over every route of both services (identity's device flow, pushed
 * authorization requests and logout included), each healthy (real PostgreSQL and Redis), on
 * kept-alive connections: random methods, malformed paths, mutated queries, bodies of every content type, odd
 * headers, and valid requests (real keys and tokens) with one part mutated so the deeper code
 * runs. Whatever the input, the answer is never a 5xx: bad input is the caller's fault (4xx), and
 * a healthy system has no reason for a 503.
 *
 * A second, exhaustive pass puts text the input layer refuses (a NUL character, a lone surrogate,
 * bytes that are not UTF-8) into every field of every route, one at a time, in each place the
 * route reads it (query, path, urlencoded, JSON, multipart): every answer is a 4xx. The routes and
 * their fields come from the services' own tables: the two OpenAPI documents (the secrets API,
 * identity's admin API), identity's protocol route table (oidc/routes.ts), and, for the pages,
 * which have no table, the corpus's templates below.
 *
 * A failure prints each offending request (its index in the corpus, method, path, headers and
 * body) so it can be replayed with curl. The corpus has the same shape on every run; only the
 * keys and tokens minted in the set-up differ.
 */
// FUZZ_SEED and FUZZ_REQUESTS explore other corpora; CI runs the fixed one.
const SEED = Number(process.env['FUZZ_SEED'] ?? 0x12f022);
const REQUESTS = Number(process.env['FUZZ_REQUESTS'] ?? 3000);
const CONCURRENCY = 8;
const REQUEST_TIMEOUT_MS = 15_000;

/** mulberry32: a tiny, well-mixed 32-bit PRNG, enough to make the corpus the same on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
  string(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
  /** Any printable ASCII: what a header value may hold. */
  ascii(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += String.fromCharCode(32 + Math.floor(this.next() * 95));
    return out;
  }
}

interface FuzzRequest {
  service: 'secrets' | 'identity';
  method: string;
  /** Sent as is on the request line (node only refuses characters outside latin-1). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

interface Fixtures {
  secrets: {
    origin: string;
    basicAuth: string;
    clientBearer: string;
    userBearer: string;
    tokenId: string;
    secretKeys: string[];
    passphraseKey: string;
    metadataKeys: string[];
    /** A reveal page's CSRF token, its cookie, and the secret key it is bound to. */
    page: { key: string; csrf: string; cookie: string };
    burnPage: { key: string; csrf: string; cookie: string };
  };
  identity: {
    origin: string;
    realm: string;
    clientId: string;
    clientSecret: string;
    /** A scope the client-credentials client is allowed. */
    scope: string;
    /** The API (resource indicator) that scope belongs to. */
    api: string;
    accessToken: string;
    refreshToken: string;
    userAccessToken: string;
    /** The bootstrap administrator's (realm-admin) token for the admin API. */
    adminBearer: string;
    codeClientId: string;
    codeClientSecret: string;
    redirectUri: string;
    interactions: { uid: string; cookie: string; csrf: string }[];
    /** A public client allowed the device grant, a user code it started, and the device page's form token and cookie. */
    deviceClientId: string;
    userCode: string;
    devicePage: { xsrf: string; cookie: string };
  };
}

// --- Building blocks of the corpus -------------------------------------------------------------

const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];

const b64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const latin1OfUtf8 = (value: string) => Buffer.from(value, 'utf8').toString('latin1');

function forgedJwt(r: Rng, real?: string): string {
  const kinds = [
    () => `${b64url('{"alg":"none","typ":"JWT"}')}.${b64url('{"sub":"admin","scope":"secrets:read secrets:write"}')}.`,
    () => `${b64url('{"alg":"HS256","kid":"x"}')}.${b64url('{"sub":"admin"}')}.${b64url(r.string(32))}`,
    () => `${b64url('{"alg":"ES256","kid":"../../etc/passwd"}')}.${b64url('{"exp":1e400}')}.${b64url(r.string(64))}`,
    () => `${b64url('not json')}.${b64url('[]')}.x`,
    () => `${b64url('{"alg":"RS256","jku":"http://127.0.0.1:9/jwks","x5u":"http://127.0.0.1:9"}')}.${b64url('{}')}.${r.string(10)}`,
    () => `${r.string(20)}.${r.string(20)}`,
    () => `${b64url('{"alg":"ES256","crit":["b64"],"b64":false}')}.${b64url('{"iss":1,"aud":{},"exp":"x"}')}.`,
    () => (real ? `${real.split('.').slice(0, 2).join('.')}.${b64url(r.string(64))}` : 'a.b.c'),
    () => (real ? real.slice(0, -r.int(1, 20)) : '..'),
    () => (real ? `${b64url('{"alg":"none"}')}.${real.split('.')[1] ?? ''}.` : '...'),
  ];
  return r.pick(kinds)();
}

function garbageAuthorization(r: Rng, f: Fixtures): string {
  const options = [
    () => `Basic ${r.ascii(r.int(0, 40))}`,
    () => 'Basic !!!!',
    () => `Basic ${Buffer.from(r.string(20)).toString('base64')}`, // no colon
    () => `Basic ${Buffer.from(`${r.string(5)}:`).toString('base64')}`,
    () => `Basic ${Buffer.from(`:${r.string(5)}`).toString('base64')}`,
    () => `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0x80, 0xc3]).toString('base64')}`,
    () => `Basic ${Buffer.from(`%ff%:${r.string(5)}`).toString('base64')}`,
    () => `Basic ${Buffer.from(`${r.pick([f.identity.clientId, 'user'])}${r.pick(['\u0000', '%00', '\ud800'])}:${r.string(5)}\u0000`).toString('base64')}`,
    () => `Basic ${'A'.repeat(r.int(1000, 12000))}`,
    () => `Bearer ${forgedJwt(r, r.chance(0.5) ? f.secrets.clientBearer.slice(7) : f.identity.accessToken)}`,
    () => `Bearer ${'x'.repeat(r.int(1000, 12000))}`,
    () => 'Bearer',
    () => 'Bearer ',
    () => `bearer ${f.identity.accessToken}`,
    () => `Digest username="a", realm="b"`,
    () => r.ascii(r.int(1, 60)),
    () => `${f.secrets.basicAuth}, ${f.secrets.clientBearer}`,
  ];
  return r.pick(options)();
}

function mutateSegment(r: Rng, segment: string): string {
  const options = [
    () => '%ff',
    () => '%',
    () => '%2',
    () => '%00',
    () => '%e2%82',
    () => '%c0%ae%c0%ae',
    () => '..',
    () => '.',
    () => '%2e%2e',
    () => `${segment}%2f..%2f..`,
    () => 'x'.repeat(r.int(300, 9000)),
    () => latin1OfUtf8(r.pick(['é', 'Ω', '☃', '😀', '\u200b', 'ﬀ'])),
    () => `${segment}${latin1OfUtf8('ü')}`,
    () => `${segment};jsessionid=1`,
    () => `${segment}%20`,
    () => segment.toUpperCase(),
    () => `${segment}${r.string(1)}`,
    () => segment.slice(0, -1),
    () => '',
    () => '__proto__',
    () => 'constructor',
    () => `${segment}?`,
    () => `${segment}#x`,
  ];
  return r.pick(options)();
}

function mutatePath(r: Rng, path: string): string {
  const [pathname = '', query] = splitQuery(path);
  const segments = pathname.split('/');
  const options = [
    () => {
      const i = r.int(1, Math.max(1, segments.length - 1));
      segments[i] = mutateSegment(r, segments[i] ?? '');
      return segments.join('/');
    },
    () => `${pathname}/`,
    () => `${pathname}/${r.string(r.int(1, 12))}`,
    () => pathname.replace('/', '//'),
    () => `${pathname}/../../../../etc/passwd`,
    () => `/..${pathname}`,
    () => pathname.replaceAll('/', '/./'),
    () => `${pathname}%ff`,
    () => `${pathname}/%`,
    () => `${pathname}${'/a'.repeat(r.int(50, 2000))}`,
    () => `*`,
    () => `http://evil.test${pathname}`,
  ];
  const mutated = r.pick(options)();
  return query === undefined ? mutated : `${mutated}?${query}`;
}

function splitQuery(path: string): [string, string | undefined] {
  const at = path.indexOf('?');
  return at < 0 ? [path, undefined] : [path.slice(0, at), path.slice(at + 1)];
}

function randomQuery(r: Rng): string {
  const options = [
    () => `${r.string(4)}=${r.string(8)}`,
    () => 'a=1&a=2&a=3',
    () => 'a[b][c]=1&a[]=2',
    () => '%ff=%ff',
    () => '%=%',
    () => `x=${'y'.repeat(r.int(1000, 12000))}`,
    () => Array.from({ length: r.int(100, 2000) }, (_, i) => `k${i}=${i}`).join('&'),
    () => '&&&==&',
    () => `limit=${r.pick(['-1', '0', '1e9', 'abc', '99999999999999999999', '%00', '1.5', ''])}`,
    () => `before=${r.pick(['', '%ff', 'x'.repeat(500), '2020-01-01', 'null', '-1'])}`,
    () => `burned=${r.pick(['1', '%ff', ''])}`,
    () => `__proto__[x]=1&constructor[prototype][y]=2`,
    () => latin1OfUtf8(`q=${r.pick(['é', '😀', '\u200b'])}`),
  ];
  return r.pick(options)();
}

function mutateQuery(r: Rng, path: string, fieldNames: string[]): string {
  const [pathname, query] = splitQuery(path);
  // The API reads parameters from the query too: a route's own field, repeated or nested.
  if (fieldNames.length && r.chance(0.3)) {
    const k = r.pick(fieldNames);
    return `${path}${query === undefined ? '?' : '&'}${r.pick([`${k}=1&${k}=2`, `${k}[]=x`, `${k}[a]=1`, `${k}=%ff`, `${k}=${'q'.repeat(r.int(100, 6000))}`])}`;
  }
  if (query && r.chance(0.5)) {
    const params = query.split('&');
    const i = r.int(0, params.length - 1);
    const [k = ''] = (params[i] ?? '').split('=');
    params[i] = r.pick([`${k}=`, `${k}`, `${k}=%ff`, `${k}=${'z'.repeat(r.int(100, 5000))}`, `${k}=${r.string(6)}`, `${k}[]=1`, `${k}=1&${k}=2`]);
    return `${pathname}?${params.join('&')}`;
  }
  return `${pathname}?${query ? `${query}&` : ''}${randomQuery(r)}`;
}

type Fields = Record<string, string>;

function urlencoded(fields: Fields): Buffer {
  return Buffer.from(new URLSearchParams(fields).toString());
}

function mutateFields(r: Rng, fields: Fields): string {
  // A raw urlencoded string, so repeated keys and broken escapes survive.
  const pairs = Object.entries(fields).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  const keys = Object.keys(fields);
  const key = keys.length ? r.pick(keys) : r.string(5);
  const options = [
    () => [...pairs, `${key}=${r.string(6)}`], // repeated field
    () => [...pairs, `${key}[]=${r.string(3)}`, `${key}[x]=1`],
    () => pairs.map((p) => (p.startsWith(`${key}=`) ? `${key}=${'v'.repeat(r.int(17_000, 300_000))}` : p)),
    () => [...pairs, ...Array.from({ length: r.int(60, 1500) }, (_, i) => `f${i}=${i}`)],
    () => pairs.map((p) => (p.startsWith(`${key}=`) ? `${key}=%ff%` : p)),
    () => pairs.map((p) => (p.startsWith(`${key}=`) ? `${p}${r.pick(['%00', '%00%00', '%C0%80', '%EF%BF%BF', '%ED%A0%80'])}` : p)),
    () => pairs.filter((p) => !p.startsWith(`${key}=`)),
    () => pairs.map((p) => (p.startsWith(`${key}=`) ? `${key}` : p)),
    () => [...pairs, '=', '&', '%=%'],
    () => pairs.map((p) => (p.startsWith(`${key}=`) ? `${key}=${r.pick(['-1', '0', '1e309', 'NaN', 'true', '[]', '{}', '%00', 'null', '99999999999999999999999'])}` : p)),
    () => [...pairs, '__proto__[admin]=1', 'constructor[prototype][x]=1'],
  ];
  return r.pick(options)().join('&');
}

function jsonBody(r: Rng, fields: Fields): Buffer {
  const keys = Object.keys(fields);
  const key = keys.length ? r.pick(keys) : 'x';
  const options = [
    () => JSON.stringify(fields),
    () =>
      JSON.stringify({
        ...fields,
        [key]: r.pick<unknown>([
          123,
          -1,
          1e308,
          true,
          null,
          [],
          {},
          [fields[key]],
          { $gt: '' },
          'x'.repeat(r.int(1000, 300_000)),
          `${fields[key] ?? ''}\u0000`,
          '\ud800',
          `${fields[key] ?? ''}\ufffe`,
        ]),
      }),
    () => `${JSON.stringify(fields).slice(0, -1)}`, // truncated
    () => '{"a":',
    () => '['.repeat(r.int(1000, 20_000)) + ']'.repeat(r.int(0, 5)),
    () => '{"a":'.repeat(r.int(500, 5000)) + '1' + '}'.repeat(r.int(0, 5000)),
    () => JSON.stringify([fields]),
    () => '"just a string"',
    () => 'null',
    () => '1e999999',
    () => '\ufeff' + JSON.stringify(fields),
    () => '{"constructor":{"prototype":{"polluted":1}},' + JSON.stringify(fields).slice(1),
    () => '{"__proto__":{"polluted":1},' + JSON.stringify(fields).slice(1),
    () => JSON.stringify(fields).replace(/"/, "'"),
    () => '',
  ];
  return Buffer.from(r.pick(options)());
}

function multipart(r: Rng, fields: Fields): { type: string; body: Buffer } {
  const boundary = r.pick(['----fuzz' + r.string(12), 'x', '"quoted boundary"', 'a'.repeat(70), '-', 'b"', '😀', '']);
  const clean = boundary.replace(/^"|"$/g, '');
  const parts = Object.entries(fields).map(([k, v]) => `--${clean}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  const options = [
    () => [...parts, `--${clean}--\r\n`].join(''),
    () =>
      [...parts, `--${clean}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${r.string(100)}\r\n`, `--${clean}--\r\n`].join(
        '',
      ),
    () => parts.join(''), // no closing boundary
    () => `--${clean}\r\nContent-Disposition: form-data\r\n\r\nnameless\r\n--${clean}--\r\n`,
    () => `--${clean}\r\nbroken header\r\n\r\nx\r\n--${clean}--\r\n`,
    () =>
      [...parts, ...Array.from({ length: r.int(51, 200) }, (_, i) => `--${clean}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n${i}\r\n`), `--${clean}--\r\n`].join(''),
    () => `--${clean}\r\nContent-Disposition: form-data; name="secret"\r\n\r\n${'s'.repeat(r.int(200_000, 300_000))}\r\n--${clean}--\r\n`,
    () => r.ascii(r.int(0, 300)),
    () => `--${clean}\r\nContent-Disposition: form-data; name="${latin1OfUtf8('é')}"; filename*=UTF-8''%ff\r\n\r\nx\r\n--${clean}--\r\n`,
  ];
  const type = r.pick([
    `multipart/form-data; boundary=${boundary}`,
    'multipart/form-data',
    `multipart/mixed; boundary=${boundary}`,
    `multipart/form-data; boundary=${boundary}; charset=utf-7`,
  ]);
  return { type: latin1OfUtf8(type), body: Buffer.from(r.pick(options)(), 'latin1') };
}

/** A body of some content type for these form fields. */
function body(r: Rng, fields: Fields): { type?: string; body?: Buffer } {
  const kind = r.int(0, 9);
  switch (kind) {
    case 0:
    case 1:
      return { type: 'application/x-www-form-urlencoded', body: urlencoded(fields) };
    case 2:
    case 3:
      return {
        type: r.pick([
          'application/x-www-form-urlencoded',
          'application/x-www-form-urlencoded; charset=utf-8',
          'application/x-www-form-urlencoded; charset=latin1',
          'application/x-www-form-urlencoded; charset=utf-7',
        ]),
        body: Buffer.from(mutateFields(r, fields), 'latin1'),
      };
    case 4:
    case 5:
      return {
        type: r.pick(['application/json', 'application/json; charset=utf-8', 'application/vnd.api+json', 'application/json; charset=utf-16', 'text/json']),
        body: jsonBody(r, fields),
      };
    case 6:
      return multipart(r, fields);
    case 7:
      return {
        type: r.pick(['text/plain', 'text/html', 'application/octet-stream', 'application/xml', 'image/png', '*/*', 'garbage', ';;;']),
        body: Buffer.from(r.ascii(r.int(0, 2000))),
      };
    case 8:
      return { body: urlencoded(fields) }; // no content type
    default:
      return { type: 'application/x-www-form-urlencoded' };
  }
}

function oddHeaders(r: Rng, f: Fixtures, headers: Record<string, string>): void {
  const options = [
    () => (headers['authorization'] = garbageAuthorization(r, f)),
    () => (headers['host'] = r.pick(['evil.test', 'evil.test:99999', '[::1', '', 'a'.repeat(300), '127.0.0.1:1'])),
    () => (headers['origin'] = r.pick(['null', 'http://evil.test', '%ff', 'file://', r.ascii(20)])),
    () =>
      (headers['cookie'] = r.pick([
        'hush_csrf=%ff',
        `_interaction=${r.string(20)}; _interaction.sig=${r.string(27)}`,
        '=;=;;',
        'a'.repeat(8000),
        `_session=${r.string(43)}; _session.legacy=x`,
      ])),
    () => (headers['x-forwarded-for'] = r.pick(['not-an-ip', '1.1.1.1, 2.2.2.2, ::ffff:3.3.3.3', '%ff', '999.999.999.999', ''])),
    () => (headers['x-forwarded-proto'] = r.pick(['gopher', 'https', '%ff'])),
    () => (headers['x-request-id'] = r.pick(['', '<script>', 'x'.repeat(5000), r.ascii(30)])),
    () => (headers['accept'] = r.pick(['application/json', 'text/html', '*/*;q=abc', '', r.ascii(40)])),
    () => (headers['accept-language'] = r.ascii(r.int(0, 200))),
    () => (headers['content-encoding'] = r.pick(['gzip', 'deflate', 'br', 'identity', 'zstd', 'x-garbage'])),
    () => (headers['transfer-encoding'] = 'chunked'),
    () => (headers['if-none-match'] = r.ascii(20)),
    () => (headers['range'] = r.pick(['bytes=0-1', 'bytes=-1', 'bytes=x'])),
    () => (headers['dpop'] = forgedJwt(r)),
    () =>
      Object.assign(headers, {
        origin: r.pick(['http://evil.test', f.identity.origin, 'null']),
        'access-control-request-method': r.pick(['POST', 'GET', 'DELETE', 'X']),
        'access-control-request-headers': r.pick(['authorization', 'content-type, dpop', r.ascii(30)]),
      }),
    () => (headers['expect'] = r.pick(['100-continue', 'garbage'])),
    () =>
      (headers['content-type'] = r.pick([
        'application/json; charset=utf-7',
        'application/x-www-form-urlencoded; charset="%ff"',
        'multipart/form-data; boundary=',
        latin1OfUtf8('text/plain; charset=ü'),
        '',
      ])),
  ];
  for (let i = r.int(1, 2); i > 0; i--) r.pick(options)();
}

// --- The routes, each as a valid request built from the fixtures -------------------------------

interface Template {
  service: 'secrets' | 'identity';
  method: string;
  path: string;
  headers?: Record<string, string>;
  fields?: Fields;
}

function secretsTemplates(r: Rng, f: Fixtures): Template[] {
  const s = f.secrets;
  const auth = r.pick([s.basicAuth, s.clientBearer, s.userBearer]);
  const secretKey = r.pick([...s.secretKeys, s.passphraseKey]);
  const metadataKey = r.pick(s.metadataKeys);
  const base = r.pick(['private', 'metadata', 'receipt']);
  const shareFields: Fields = {
    secret: r.string(r.int(1, 40)),
    ...(r.chance(0.4) ? { passphrase: r.string(8) } : {}),
    ...(r.chance(0.4) ? { ttl: String(r.int(60, 86400)) } : {}),
    ...(r.chance(0.2) ? { recipient: `${r.string(5)}@example.com` } : {}),
  };
  const page = r.pick([s.page, s.burnPage]);
  const t = (method: string, path: string, fields?: Fields, headers: Record<string, string> = {}): Template => ({ service: 'secrets', method, path, fields, headers });
  return [
    t('GET', '/api/v1/status'),
    t('GET', '/api/v1/authcheck', undefined, { authorization: auth }),
    t('GET', '/api/v1/openapi.json'),
    t('POST', '/api/v1/share', shareFields, { authorization: auth }),
    t('POST', '/api/v1/create', shareFields, { authorization: auth }),
    t('POST', '/api/v1/generate', { ...(r.chance(0.5) ? { passphrase: r.string(6) } : {}), ttl: String(r.int(60, 3600)) }, { authorization: auth }),
    t('POST', `/api/v1/secret/${secretKey}`, secretKey === s.passphraseKey ? { passphrase: r.pick(['right-passphrase', 'wrong']) } : {}),
    t('GET', `/api/v1/${base}/recent?limit=${r.int(1, 20)}`, undefined, { authorization: auth }),
    t('GET', `/api/v1/${base}/${metadataKey}`, undefined, r.chance(0.5) ? { authorization: auth } : {}),
    t('POST', `/api/v1/${base}/${metadataKey}`, {}, r.chance(0.5) ? { authorization: auth } : {}),
    t('POST', `/api/v1/${base}/${metadataKey}/burn`, {}, r.chance(0.5) ? { authorization: auth } : {}),
    t('POST', '/api/v1/account/api-token', {}, { authorization: s.userBearer }),
    t('GET', '/api/v1/account/api-tokens', undefined, { authorization: s.userBearer }),
    t('DELETE', `/api/v1/account/api-token/${r.chance(0.7) ? s.tokenId : r.string(10)}`, undefined, { authorization: s.userBearer }),
    t('GET', `/secret/${secretKey}`),
    t('POST', `/secret/${page.key}`, { csrf: page.csrf, ...(r.chance(0.3) ? { passphrase: r.string(5) } : {}) }, { origin: s.origin, cookie: page.cookie }),
    t('GET', `/private/${metadataKey}${r.chance(0.3) ? '?burned=1' : ''}`),
    t('POST', `/private/${s.burnPage.key}/burn`, { csrf: s.burnPage.csrf }, { origin: s.origin, cookie: s.burnPage.cookie }),
    t('GET', '/healthz'),
    t('GET', '/readyz'),
    t('GET', '/metrics'),
    t(r.pick(METHODS), `/${r.string(r.int(1, 10))}`),
  ];
}

function identityTemplates(r: Rng, f: Fixtures): Template[] {
  const i = f.identity;
  const p = `${i.realm}/protocol/openid-connect`;
  // Resource indicators reach our own resource-server lookup.
  const resource = (): Fields => (r.chance(0.3) ? { resource: r.pick([i.api, 'https://unknown.example.com', 'not a url', 'urn:x', `${i.api}#frag`, '']) } : {});
  // Mostly the right credentials; sometimes a wrong secret or a made-up client id.
  const [id, secret] = r.pick([
    [i.clientId, i.clientSecret],
    [i.clientId, i.clientSecret],
    [i.clientId, i.clientSecret],
    [i.clientId, r.string(43)],
    [r.string(12), r.string(43)],
  ] as const);
  const clientAuth: { headers: Record<string, string>; fields: Fields } = r.chance(0.5)
    ? { headers: { authorization: clientBasic(id, secret) }, fields: {} }
    : { headers: {}, fields: { client_id: id, client_secret: secret } };
  const interaction = r.pick(i.interactions);
  const authQuery = new URLSearchParams({
    client_id: r.chance(0.8) ? i.codeClientId : r.string(8),
    redirect_uri: i.redirectUri,
    response_type: r.pick(['code', 'code', 'id_token token', 'none', 'token']),
    scope: r.pick(['openid', 'openid profile email', 'openid secrets:read', 'offline_access']),
    state: r.string(8),
    code_challenge: b64url(r.string(32)),
    code_challenge_method: 'S256',
    ...(r.chance(0.3) ? { prompt: r.pick(['login', 'consent', 'none', 'select_account', 'create']) } : {}),
    ...(r.chance(0.2) ? { nonce: r.string(8), max_age: r.pick(['0', '-1', 'x']) } : {}),
    ...(r.chance(0.1) ? { request: forgedJwt(r), request_uri: 'urn:x' } : {}),
    ...resource(),
  }).toString();
  const token = r.pick([i.accessToken, i.refreshToken, i.userAccessToken, forgedJwt(r, i.accessToken)]);
  const t = (method: string, path: string, fields?: Fields, headers: Record<string, string> = {}): Template => ({ service: 'identity', method, path, fields, headers });
  const interactionHeaders = { cookie: interaction.cookie, origin: i.origin };
  return [
    t('GET', `${i.realm}/.well-known/openid-configuration`),
    t('GET', `${i.realm}/.well-known/oauth-authorization-server`),
    t('GET', `${p}/certs`),
    t('GET', `${p}/auth?${authQuery}`),
    t('POST', `${p}/auth`, Object.fromEntries(new URLSearchParams(authQuery))),
    t('GET', `${p}/auth/${interaction.uid}`, undefined, { cookie: interaction.cookie }),
    t(
      'POST',
      `${p}/token`,
      { grant_type: 'client_credentials', scope: r.pick([i.scope, i.scope, `${i.scope} openid`, '', 'read', 'secrets:read']), ...resource(), ...clientAuth.fields },
      clientAuth.headers,
    ),
    t('POST', `${p}/token`, { grant_type: 'refresh_token', refresh_token: i.refreshToken, ...clientAuth.fields }, clientAuth.headers),
    t('POST', `${p}/token`, {
      grant_type: 'authorization_code',
      code: r.string(43),
      redirect_uri: i.redirectUri,
      code_verifier: r.string(43),
      client_id: i.codeClientId,
      client_secret: i.codeClientSecret,
    }),
    t(
      'POST',
      `${p}/token`,
      {
        grant_type: r.pick(['password', 'urn:ietf:params:oauth:grant-type:device_code', 'urn:ietf:params:oauth:grant-type:token-exchange', 'implicit', '']),
        username: 'a',
        password: 'b',
        ...clientAuth.fields,
      },
      clientAuth.headers,
    ),
    t(r.pick(['GET', 'POST']), `${p}/userinfo`, r.chance(0.3) ? { access_token: token } : undefined, { authorization: `Bearer ${token}` }),
    t(
      'POST',
      `${p}/token/introspect`,
      { token, ...(r.chance(0.3) ? { token_type_hint: r.pick(['access_token', 'refresh_token', 'x']) } : {}), ...clientAuth.fields },
      clientAuth.headers,
    ),
    t(
      'POST',
      `${p}/revoke`,
      { token: r.chance(0.5) ? token : r.string(43), ...(r.chance(0.3) ? { token_type_hint: r.pick(['access_token', 'refresh_token', 'x']) } : {}), ...clientAuth.fields },
      clientAuth.headers,
    ),
    t(r.pick(['GET', 'POST']), `${p}/logout${r.chance(0.5) ? `?id_token_hint=${forgedJwt(r)}&post_logout_redirect_uri=${encodeURIComponent(i.redirectUri)}&state=x` : ''}`),
    t('POST', `${p}/logout/confirm`, { xsrf: r.string(20), logout: 'yes' }, { cookie: `_session=${r.string(43)}` }),
    t('GET', `${p}/logout/success`),
    t('GET', `${i.realm}/login-actions/${interaction.uid}`, undefined, { cookie: interaction.cookie }),
    t(
      'POST',
      `${i.realm}/login-actions/${interaction.uid}/login`,
      { csrf: interaction.csrf, username: r.pick(['alice', 'nobody', '', 'a'.repeat(5000)]), password: r.pick(['fuzz-password-1', 'wrong', '']) },
      interactionHeaders,
    ),
    t('POST', `${i.realm}/login-actions/${interaction.uid}/confirm`, { csrf: interaction.csrf }, interactionHeaders),
    t('POST', `${i.realm}/login-actions/${interaction.uid}/abort`, { csrf: interaction.csrf }, interactionHeaders),
    // Pushed authorization requests, at Keycloak's path and the legacy alias.
    t('POST', r.pick([`${p}/ext/par/request`, `${i.realm}/request`]), {
      ...Object.fromEntries(new URLSearchParams(authQuery)),
      ...(r.chance(0.5) ? { client_secret: i.codeClientSecret } : {}),
    }),
    // The device flow: the device's request, the person's code page (its form, with and without its session), and the polling.
    t('POST', `${p}/auth/device`, { client_id: r.pick([i.deviceClientId, i.deviceClientId, i.clientId, '']), scope: r.pick(['openid', 'openid profile', '', 'x']) }),
    t(r.pick(['GET', 'GET', 'HEAD']), `${i.realm}/device${r.chance(0.5) ? `?user_code=${encodeURIComponent(r.pick([i.userCode, 'BCDF-GHJK', r.string(8)]))}` : ''}`),
    t(
      'POST',
      `${i.realm}/device`,
      {
        xsrf: r.pick([i.devicePage.xsrf, i.devicePage.xsrf, r.string(48)]),
        user_code: r.pick([i.userCode, 'BCDF-GHJK', r.string(9), '']),
        ...(r.chance(0.3) ? { [r.pick(['confirm', 'abort'])]: 'yes' } : {}),
      },
      r.chance(0.7) ? { cookie: i.devicePage.cookie } : {},
    ),
    t('GET', `${i.realm}/device/${r.string(21)}`),
    t('POST', `${p}/token`, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: r.string(43), client_id: i.deviceClientId }),
    t('GET', '/healthz'),
    t('GET', '/readyz'),
    t('GET', '/metrics'),
    t(r.pick(METHODS), `${i.realm}/${r.string(r.int(1, 10))}`),
  ];
}

/** One request of the corpus: a valid request of a random route, with up to a few parts mutated. */
function generate(r: Rng, f: Fixtures): FuzzRequest {
  const service = r.chance(0.5) ? 'secrets' : 'identity';
  const template = r.pick(service === 'secrets' ? secretsTemplates(r, f) : identityTemplates(r, f));
  const headers: Record<string, string> = { ...template.headers };
  let method = template.method;
  let path = template.path;
  let payload: { type?: string; body?: Buffer } = template.fields ? { type: 'application/x-www-form-urlencoded', body: urlencoded(template.fields) } : {};

  // Some requests stay valid, most get one mutation (so the rest of the request still reaches
  // the code behind it), a few get two or three.
  const roll = r.float();
  const mutations = roll < 0.15 ? 0 : roll < 0.7 ? 1 : r.int(2, 3);
  for (let m = 0; m < mutations; m++) {
    switch (r.int(0, 5)) {
      case 0:
        method = r.pick(METHODS);
        break;
      case 1:
        path = mutatePath(r, path);
        break;
      case 2:
        path = mutateQuery(r, path, Object.keys(template.fields ?? {}));
        break;
      case 3:
      case 4:
        payload = body(r, template.fields ?? { [r.string(5)]: r.string(8) });
        break;
      default:
        oddHeaders(r, f, headers);
    }
  }
  if (payload.type !== undefined && headers['content-type'] === undefined) headers['content-type'] = payload.type;
  // GET and HEAD carry no body in practice; keep the corpus to what a server sees on the wire.
  const sendsBody = payload.body !== undefined && method !== 'GET' && method !== 'HEAD';
  return { service, method, path, headers, body: sendsBody ? payload.body : undefined };
}

// --- Running it --------------------------------------------------------------------------------

interface Outcome {
  status?: number;
  error?: string;
  responseBody?: string;
}

/**
 * Sends one request. A kept-alive socket the server closed just as it was reused fails before any
 * answer (node's documented keep-alive race); that request is sent once more on a fresh socket.
 */
async function send(agent: Agent, origin: string, req: FuzzRequest): Promise<Outcome> {
  const first = await sendOnce(agent, origin, req);
  return first.staleSocket ? sendOnce(false, origin, req) : first;
}

function sendOnce(agent: Agent | false, origin: string, req: FuzzRequest): Promise<Outcome & { staleSocket?: boolean }> {
  const url = new URL(origin);
  return new Promise((resolve) => {
    let status: number | undefined;
    let done = false;
    const finish = (outcome: Outcome & { staleSocket?: boolean }) => {
      if (done) return;
      done = true;
      resolve(outcome);
    };
    let client;
    try {
      client = httpRequest({
        agent,
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: { ...req.headers, ...(req.body && req.headers['transfer-encoding'] === undefined ? { 'content-length': String(req.body.length) } : {}) },
        timeout: REQUEST_TIMEOUT_MS,
        setHost: req.headers['host'] === undefined,
      });
    } catch (err) {
      // Refused by node's own client (a character it will not put on the wire): never sent.
      finish({ error: `not sent: ${(err as Error).message}` });
      return;
    }
    client.on('response', (res) => {
      status = res.statusCode;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < 4096) chunks.push(chunk);
        size += chunk.length;
      });
      res.on('end', () => finish({ status, responseBody: Buffer.concat(chunks).toString('utf8').slice(0, 2000) }));
      res.on('error', () => finish({ status }));
    });
    client.on('timeout', () => {
      client.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`));
    });
    client.on('error', (err: NodeJS.ErrnoException) => {
      if (status !== undefined) finish({ status });
      else finish({ error: err.message, staleSocket: client.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE') });
    });
    client.end(req.body);
  });
}

async function runAll<T, R>(items: T[], concurrency: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await run(items[index] as T, index);
      }
    }),
  );
  return results;
}

function describeRequest(index: number, req: FuzzRequest, outcome: Outcome): string {
  const bodyText = req.body ? req.body.toString('latin1') : '';
  const shown = bodyText.length > 600 ? `${bodyText.slice(0, 600)}… (${req.body?.length} bytes)` : bodyText;
  const path = req.path.length > 300 ? `${req.path.slice(0, 300)}… (${req.path.length} chars)` : req.path;
  const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, v.length > 200 ? `${v.slice(0, 200)}… (${v.length} chars)` : v]));
  return [
    `#${index} [${req.service}] ${req.method} ${path} -> ${outcome.status ?? outcome.error}`,
    `  headers: ${JSON.stringify(headers)}`,
    `  body: ${JSON.stringify(shown)}`,
    `  response: ${JSON.stringify(outcome.responseBody ?? '')}`,
  ].join('\n');
}

/** A log line at error level or above (pino's number, or its label). */
function isFault(line: string): boolean {
  const { level } = JSON.parse(line) as { level: number | string };
  return typeof level === 'number' ? level >= 50 : level === 'error' || level === 'fatal';
}

// --- Text that is not text, in every field of every route ---------------------------------------

type Place = 'query' | 'path' | 'form' | 'json' | 'multipart';
type BodyType = 'form' | 'json' | 'multipart';

/**
 * One spelling of each problem the input layer refuses, per place: a NUL, a lone surrogate (in
 * percent-encoding and raw bytes that is an encoded surrogate, itself not UTF-8), bytes that are
 * not UTF-8.
 */
const NOT_TEXT: Record<Place, (string | Buffer)[]> = {
  query: ['%00', '%ED%A0%80', '%C3%28'],
  path: ['%00', '%ED%A0%80', '%FF'],
  form: ['%00', '%ED%A0%80', '%C0%80'],
  json: ['\\u0000', '\\ud800', Buffer.from([0xff])],
  multipart: [Buffer.from([0]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xc3, 0x28])],
};

/** A route as the sweep sees it: where it is, who may call it, and the fields it reads, with a valid value each. */
interface SweepRoute {
  service: 'secrets' | 'identity';
  method: string;
  /** The path, `{name}` for each path parameter. */
  path: string;
  headers: Record<string, string>;
  query: Fields;
  body?: { types: BodyType[]; fields: Fields };
}

interface OpenApiOperation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
}
type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>> };

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const BODY_TYPES: Record<string, BodyType> = { 'application/json': 'json', 'application/x-www-form-urlencoded': 'form', 'multipart/form-data': 'multipart' };

/** Every operation of an OpenAPI document, with each field it declares (top-level body properties). */
function fromOpenApi(service: SweepRoute['service'], mount: string, doc: OpenApiDocument, headers: Record<string, string>): SweepRoute[] {
  return Object.entries(doc.paths).flatMap(([template, operations]) =>
    Object.entries(operations)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, op]) => {
        const content = Object.entries(op.requestBody?.content ?? {});
        const properties = Object.keys(content[0]?.[1].schema?.properties ?? {});
        const body = content.length ? { types: content.flatMap(([type]) => (BODY_TYPES[type] ? [BODY_TYPES[type]] : [])), fields: valid(properties) } : undefined;
        return {
          service,
          method: method.toUpperCase(),
          path: `${mount}${template}`,
          headers,
          query: valid((op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)),
          ...(body ? { body } : {}),
        };
      }),
  );
}

const valid = (names: string[]): Fields => Object.fromEntries(names.map((n) => [n, 'x']));

/**
 * The routes without a document: identity's protocol routes (its route table; their fields from
 * the corpus's valid requests for them) and both services' pages (the corpus's templates).
 */
function fromTemplates(f: Fixtures): SweepRoute[] {
  const r = new Rng(SEED);
  const seen = new Map<string, SweepRoute>();
  // Several draws, so that each template's optional fields and alternative methods show up.
  for (let draw = 0; draw < 20; draw++) {
    for (const t of [...secretsTemplates(r, f), ...identityTemplates(r, f)]) {
      const [pathname = '', rawQuery] = splitQuery(t.path);
      if (t.service === 'secrets' && pathname.startsWith('/api/')) continue; // the OpenAPI document's
      const key = `${t.service} ${t.method} ${pathname}`;
      const route = seen.get(key) ?? { service: t.service, method: t.method, path: pathname, headers: t.headers ?? {}, query: {} };
      Object.assign(route.query, Object.fromEntries(new URLSearchParams(rawQuery ?? '')));
      if (t.fields && t.method !== 'GET' && t.method !== 'HEAD') route.body = { types: ['form'], fields: { ...route.body?.fields, ...t.fields } };
      else if (t.fields) Object.assign(route.query, t.fields);
      seen.set(key, route);
    }
  }
  return [...seen.values()];
}

/** The protocol routes of identity's table that the sweep reaches (each must, or the table grew past the corpus). */
function protocolPaths(f: Fixtures): string[] {
  return [...Object.values(ROUTES), LEGACY_PAR_PATH].map((path) => `${f.identity.realm}${path}`);
}

const MARK = 'NOT-TEXT-HERE';

/** A body of `type` for `fields`, with the value of `name` holding `bad` (a raw escape or bytes) between two letters. */
function bodyWith(type: BodyType, fields: Fields, name: string, bad: string | Buffer): { type: string; body: Buffer } {
  const marked = { ...fields, [name]: `a${MARK}b` };
  let text: string;
  let contentType: string;
  if (type === 'json') {
    text = JSON.stringify(marked);
    contentType = 'application/json';
  } else if (type === 'form') {
    text = new URLSearchParams(marked).toString(); // MARK survives encoding as it is
    contentType = 'application/x-www-form-urlencoded';
  } else {
    text = `${Object.entries(marked)
      .map(([k, v]) => `--sweep\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('')}--sweep--\r\n`;
    contentType = 'multipart/form-data; boundary=sweep';
  }
  const [before = '', after = ''] = text.split(MARK);
  return { type: contentType, body: Buffer.concat([Buffer.from(before), Buffer.from(bad), Buffer.from(after)]) };
}

const withQuery = (path: string, query: Fields, name?: string, bad?: string) => {
  const pairs = Object.entries(query).map(([k, v]) => `${encodeURIComponent(k)}=${k === name ? `a${bad}b` : encodeURIComponent(v)}`);
  return pairs.length ? `${path}?${pairs.join('&')}` : path;
};

/** Each field of the route, alone, holding each kind of text that is not text, in each place the route reads it. */
function sweepRequests(route: SweepRoute): FuzzRequest[] {
  // A route that reads no field still has a query: text that is not text there is refused too.
  const query = Object.keys(route.query).length === 0 && !route.body && !route.path.includes('{') ? { x: 'x' } : route.query;
  route = { ...route, query };
  const base = { service: route.service, method: route.method, headers: route.headers };
  const fill = (path: string, name?: string, bad?: string) => path.replace(/\{([^}]+)\}/g, (_m, p: string) => (p === name ? `a${bad}b` : 'abcdefghijklmnopqrstuvwxyz01234'));
  const out: FuzzRequest[] = [];
  for (const param of [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string))
    for (const bad of NOT_TEXT.path) out.push({ ...base, path: withQuery(fill(route.path, param, bad as string), route.query) });
  for (const name of Object.keys(route.query)) for (const bad of NOT_TEXT.query) out.push({ ...base, path: withQuery(fill(route.path), route.query, name, bad as string) });
  for (const type of route.body?.types ?? [])
    for (const name of Object.keys(route.body?.fields ?? {}))
      for (const bad of NOT_TEXT[type]) {
        const { type: contentType, body } = bodyWith(type, route.body?.fields ?? {}, name, bad);
        out.push({ ...base, path: withQuery(fill(route.path), route.query), headers: { ...route.headers, 'content-type': contentType }, body });
      }
  return out;
}

// --- The test ----------------------------------------------------------------------------------

// The services' default log level (info, as compose runs them), not the harnesses' debug: a
// fault is logged at error level either way, and thousands of requests' debug lines cost CPU.
const FUZZ_CONFIG = {
  secrets: { RATE_LIMIT_MAX: '0', AUTH_MAX_FAILURES: '1000000', LOG_LEVEL: 'info' },
  identity: {
    LOG_LEVEL: 'info',
    CLIENT_AUTH_MAX_FAILURES: '1000000',
    CLIENT_AUTH_MAX_FAILURES_PER_IP: '1000000',
    LOGIN_MAX_FAILURES: '1000000',
    LOGIN_MAX_FAILURES_PER_IP: '1000000',
    SIGN_IN_MAX_PER_IP: '1000000',
    LOGIN_PAGE_MAX_PER_IP: '1000000',
  },
};

let identity: IdentityHarness;
let secrets: SecretsHarness;
let fixtures: Fixtures;

async function pageForm(url: string): Promise<{ csrf: string; cookie: string }> {
  const res = await fetch(url);
  const html = await res.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!csrf) throw new Error(`no CSRF token on ${url} (${res.status})`);
  return {
    csrf,
    cookie: res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
  };
}

async function openInteraction(authUrl: string, origin: string): Promise<{ uid: string; cookie: string; csrf: string }> {
  const res = await fetch(authUrl, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (!location) throw new Error(`no interaction redirect (${res.status})`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const page = await fetch(new URL(location, origin), { headers: { cookie } });
  const html = await page.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!csrf) throw new Error(`no CSRF token on the login page (${page.status})`);
  return { uid: location.split('/').pop() as string, cookie, csrf };
}

beforeAll(async () => {
  identity = await startIdentity(FUZZ_CONFIG.identity);
  secrets = await startSecrets({ IDENTITY_ISSUER: identity.issuer, ...FUZZ_CONFIG.secrets });
  const boot = await identity.cli<{ admin_client: { client_id: string; client_secret: string } }>('bootstrap', '--secrets-audience', secrets.config.API_AUDIENCE);

  // Secrets: an account with an API token, a client's and a user's access token, and keys.
  const alice = await secrets.account();
  await identity.cli('users', 'create', 'alice', '--password', 'fuzz-password-1');
  const { accessToken: clientBearer } = await clientToken(identity, 'secrets:read secrets:write');
  const userBearer = await userToken(identity, 'alice', 'fuzz-password-1', 'secrets:read secrets:write');
  const minted = await secrets.http.post('/api/v1/account/api-token').set('Authorization', `Bearer ${userBearer}`);
  const tokens = await secrets.http.get('/api/v1/account/api-tokens').set('Authorization', `Bearer ${userBearer}`);
  const tokenId = String((tokens.body as { id?: string }[])[0]?.id ?? minted.body?.id ?? 'none');
  const share = async (fields: Fields) => {
    const res = await secrets.http.post('/api/v1/share').set('Authorization', alice.auth).type('form').send(fields);
    if (res.status !== 200) throw new Error(`share failed: ${res.status}`);
    return res.body as { secret_key: string; metadata_key: string };
  };
  const shared = await Promise.all(Array.from({ length: 12 }, (_, n) => share({ secret: `fuzz value ${n}`, ttl: '3600' })));
  const withPassphrase = await share({ secret: 'guarded', passphrase: 'right-passphrase' });
  const forPage = await share({ secret: 'page value' });
  const forBurn = await share({ secret: 'burn value' });

  // Identity: a client-credentials client (with its tokens) and an authorization-code client
  // with a few open login interactions.
  const c = await createApiAndClient(identity, { grants: 'client_credentials,refresh_token' });
  const cc = await postForm(`${identity.issuer}/protocol/openid-connect/token`, {
    grant_type: 'client_credentials',
    scope: c.read,
    client_id: c.clientId,
    client_secret: c.clientSecret,
  });
  const admin = await postForm(`${identity.issuer}/protocol/openid-connect/token`, {
    grant_type: 'client_credentials',
    client_id: boot.admin_client.client_id,
    client_secret: boot.admin_client.client_secret,
  });
  const redirectUri = 'http://127.0.0.1:9/callback';
  const codeClient = await identity.cli<{ client_id: string; client_secret: string }>(
    'clients',
    'create',
    '--name',
    'fuzz app',
    '--grants',
    'authorization_code,refresh_token',
    '--scopes',
    'secrets:read',
    '--redirect-uri',
    redirectUri,
  );
  const authUrl = `${identity.issuer}/protocol/openid-connect/auth?${new URLSearchParams({ client_id: codeClient.client_id, redirect_uri: redirectUri, response_type: 'code', scope: 'openid', state: 's', code_challenge: b64url('x'.repeat(32)), code_challenge_method: 'S256' }).toString()}`;
  const interactions = await Promise.all(Array.from({ length: 8 }, () => openInteraction(authUrl, identity.url)));
  const deviceClient = await identity.cli<{ client_id: string }>(
    'clients',
    'create',
    '--name',
    'fuzz device',
    '--public',
    '--grants',
    'urn:ietf:params:oauth:grant-type:device_code,refresh_token',
    '--scopes',
    'openid,profile',
  );
  const device = await postForm(`${identity.issuer}/protocol/openid-connect/auth/device`, { client_id: deviceClient.client_id, scope: 'openid' });
  const devicePage = await fetch(`${identity.issuer}/device`);
  const deviceXsrf = /name="xsrf" value="([^"]+)"/.exec(await devicePage.text())?.[1];
  if (!deviceXsrf) throw new Error(`no form token on the device page (${devicePage.status})`);

  fixtures = {
    secrets: {
      origin: new URL(secrets.url).origin,
      basicAuth: alice.auth,
      clientBearer: `Bearer ${clientBearer}`,
      userBearer: `Bearer ${userBearer}`,
      tokenId,
      secretKeys: shared.map((s) => s.secret_key),
      passphraseKey: withPassphrase.secret_key,
      metadataKeys: [...shared.map((s) => s.metadata_key), withPassphrase.metadata_key, forPage.metadata_key],
      page: { key: forPage.secret_key, ...(await pageForm(`${secrets.url}/secret/${forPage.secret_key}`)) },
      burnPage: { key: forBurn.metadata_key, ...(await pageForm(`${secrets.url}/private/${forBurn.metadata_key}`)) },
    },
    identity: {
      origin: new URL(identity.url).origin,
      realm: new URL(identity.issuer).pathname,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      scope: c.read,
      api: c.api,
      accessToken: String(cc.body['access_token']),
      refreshToken: typeof cc.body['refresh_token'] === 'string' ? cc.body['refresh_token'] : 'no-refresh-token',
      userAccessToken: userBearer,
      adminBearer: `Bearer ${String(admin.body['access_token'])}`,
      codeClientId: codeClient.client_id,
      codeClientSecret: codeClient.client_secret,
      redirectUri,
      interactions,
      deviceClientId: deviceClient.client_id,
      userCode: String(device.body['user_code']),
      devicePage: {
        xsrf: deviceXsrf,
        cookie: devicePage.headers
          .getSetCookie()
          .map((c) => c.split(';')[0])
          .join('; '),
      },
    },
  };
}, 60_000);

afterAll(async () => {
  await secrets?.close();
  await identity?.close();
});

/** Sends the corpus on kept-alive connections, CONCURRENCY at a time: each request's outcome, and what both services logged at error level meanwhile. */
async function sendCorpus(corpus: FuzzRequest[]): Promise<{ outcomes: Outcome[]; faults: string[] }> {
  const logged = { identity: identity.logs.length, secrets: secrets.logs.length };
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const origins = { secrets: secrets.url, identity: identity.url };
  const outcomes = await runAll(corpus, CONCURRENCY, (req) => send(agent, origins[req.service], req));
  agent.destroy();
  return { outcomes, faults: [...identity.logs.slice(logged.identity), ...secrets.logs.slice(logged.secrets)].filter(isFault) };
}

describe('text that is not text, in every field of every route', () => {
  it('a NUL, a lone surrogate or bytes that are not UTF-8, alone in any field, in any place: 4xx, never 5xx', async () => {
    const secretsDoc = (await (await fetch(`${secrets.url}/api/v1/openapi.json`)).json()) as OpenApiDocument;
    const adminDoc = (await (await fetch(`${identity.url}/auth/admin/realms/public/openapi.json`)).json()) as OpenApiDocument;
    const routes = [
      ...fromOpenApi('secrets', '/api/v1', secretsDoc, { authorization: fixtures.secrets.basicAuth }),
      ...fromOpenApi('identity', '/auth/admin/realms/public', adminDoc, { authorization: fixtures.identity.adminBearer }),
      ...fromTemplates(fixtures),
    ];
    // Every protocol route of identity's table is swept.
    expect(protocolPaths(fixtures).filter((path) => !routes.some((r) => r.service === 'identity' && r.path === path))).toEqual([]);
    const corpus = routes.flatMap(sweepRequests);
    const { outcomes, faults } = await sendCorpus(corpus);

    const failures = outcomes.flatMap((outcome, index) =>
      outcome.status === undefined || outcome.status < 400 || outcome.status >= 500 ? [describeRequest(index, corpus[index] as FuzzRequest, outcome)] : [],
    );
    // eslint-disable-next-line no-console -- the reproduction of each failure, for whoever reads the CI log
    if (failures.length) console.log(`${failures.length} of ${corpus.length} requests were not refused:\n${failures.slice(0, 50).join('\n')}`);
    expect(failures).toEqual([]);
    expect(faults).toEqual([]);
    // Every route got each kind of text, in at least one place.
    expect(corpus.length).toBeGreaterThanOrEqual(3 * routes.length);
  }, 180_000);
});

describe('fuzzing every route of both services', () => {
  it(`${REQUESTS} seeded requests (seed ${SEED}) never get a 5xx`, async () => {
    const rng = new Rng(SEED);
    const corpus = Array.from({ length: REQUESTS }, () => generate(rng, fixtures));
    const { outcomes, faults } = await sendCorpus(corpus);

    const failures = outcomes.flatMap((outcome, index) =>
      (outcome.status ?? 0) >= 500 || (outcome.status === undefined && !outcome.error?.startsWith('not sent'))
        ? [describeRequest(index, corpus[index] as FuzzRequest, outcome)]
        : [],
    );
    const answered = outcomes.filter((o) => o.status !== undefined).length;
    // eslint-disable-next-line no-console -- the reproduction of each failure, for whoever reads the CI log
    if (failures.length) console.log(`${failures.length} of ${REQUESTS} requests failed (seed ${SEED}):\n${failures.join('\n')}`);
    expect(failures).toEqual([]);
    // Nor was any of them a fault answered with a 4xx: nothing logged at error level meanwhile.
    expect(faults).toEqual([]);
    // The corpus must mostly reach the services, or it proves nothing.
    expect(answered).toBeGreaterThan(REQUESTS * 0.9);
  }, 120_000);
});
