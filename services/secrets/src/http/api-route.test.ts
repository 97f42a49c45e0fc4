import { apiDialect } from './dialect.js';
import { capabilityTemplates, compileEndpoints, endpointsOf, type ApiRoute, type Wiring } from './api-route.js';
import { API_ROUTES } from './api.routes.js';
import { RateLimiter } from './rate-limit.js';
import { matcher, segmentsOf } from './route-match.js';

const dialect = apiDialect('spec', { min: 60, max: 3600, fallback: 600 });
const ctx = { secrets: { settings: { ttl: { min: 60, max: 3600, fallback: 600 } } } as never, zk: {} as never, accounts: {} as never, dialect, openapi: {} };
// Limits of 0 are off: no Redis is reached.
const limiter = new RateLimiter({} as never, 'test:', 0, 60);
const wiring: Wiring = { auth: { middleware: () => [] }, limiter, anonymousShares: false, anonymousLimiter: limiter };
const ok = { schema: 'Status', description: 'ok' } as const;

/** A path of the table with its parameters filled in. */
const concrete = (path: string) => path.replace(/:\w+/g, 'k0123456789abcdefghijklmnopqrstu'.slice(0, 31));

describe('compileEndpoints', () => {
  it('refuses, when the app is built, a route declared without a credentials entry', () => {
    const bare = { operationId: 'bare', summary: '', methods: ['get'], path: '/bare', rateLimit: 'none', ok, handle: () => ({}) } as unknown as ApiRoute;
    expect(() => compileEndpoints([...API_ROUTES, bare], ctx, wiring)).toThrow('API route GET /bare declares no credentials entry');
    const unknown = { ...bare, credentials: { accept: 'whatever' } } as unknown as ApiRoute;
    expect(() => compileEndpoints([unknown], ctx, wiring)).toThrow('declares no credentials entry');
  });

  it('refuses a (method, path) declared twice', () => {
    const status = API_ROUTES.find((r) => r.operationId === 'status')!;
    const twice = { ...status, operationId: 'twice' };
    expect(() => compileEndpoints([...API_ROUTES, twice], ctx, wiring)).toThrow('API route GET /status is declared twice');
  });

  it("builds every declared route: each endpoint's stack ends in its handler", () => {
    const endpoints = compileEndpoints(API_ROUTES, ctx, wiring);
    expect(endpoints.map((e) => `${e.method} ${e.path}`)).toEqual(endpointsOf(API_ROUTES).map((e) => `${e.method} ${e.path}`));
    for (const e of endpoints) expect(e.stack.at(-1)?.name).toBe('endpoint');
  });
});

describe('the fast path matcher over the table', () => {
  const endpoints = endpointsOf(API_ROUTES);
  const routes = matcher(endpoints.map((e) => ({ method: e.method, segments: segmentsOf(e.path), target: e })));

  it.each(endpoints.map((e) => [e.method.toUpperCase(), e.path, e] as const))('takes %s %s to its own endpoint', (method, path, endpoint) => {
    const match = routes.match(method, concrete(path).slice(1).split('/'));
    expect(match?.target).toBe(endpoint);
    for (const name of Object.keys(endpoint.route.params ?? {})) expect(match?.params[name]).toHaveLength(31);
  });

  it('matches literal segments without letter case, as Express does, and nothing undeclared', () => {
    expect(routes.match('POST', ['SHARE'])?.target.operationId).toBe('share');
    expect(routes.match('GET', ['private', 'recent'])?.target.operationId).toBe('recentMetadata');
    expect(routes.match('PUT', ['share'])).toBeUndefined();
    expect(routes.match('POST', ['nope'])).toBeUndefined();
    expect(routes.match('POST', ['secret', 'a', 'b'])).toBeUndefined();
  });

  it('refuses a declared path outside its grammar', () => {
    expect(() => segmentsOf('share')).toThrow();
    expect(() => segmentsOf('/Share')).toThrow();
    expect(() => segmentsOf('/secret/*')).toThrow();
  });
});

describe('capabilityTemplates', () => {
  const hide = capabilityTemplates(API_ROUTES);

  it('replaces every key of a declared path with its template, under the mount or not', () => {
    expect(hide('/api/v1/secret/abc')).toBe('/api/v1/secret/:key');
    expect(hide('/secret/abc')).toBe('/secret/:key');
    expect(hide('/api/v1/receipt/abc/burn')).toBe('/api/v1/receipt/:key/burn');
    expect(hide('/api/v1/account/api-token/0b6c')).toBe('/api/v1/account/api-token/:id');
  });

  it('keeps the literal routes beside them', () => {
    expect(hide('/api/v1/private/recent')).toBe('/api/v1/private/recent');
    expect(hide('/api/v1/metadata/recently')).toBe('/api/v1/metadata/:key');
    expect(hide('/api/v1/account/api-tokens')).toBe('/api/v1/account/api-tokens');
  });
});
