import { declaredRoutes, routeLabel, UNMATCHED_ROUTE } from './metrics.js';

describe('route labels', () => {
  const routes = declaredRoutes(['/realm/token', '/realm/auth/:uid', '/realm/device']);
  const req = (originalUrl: string, extra: object = {}) => ({ method: 'GET', originalUrl, ...extra });

  it("take the matched Express route's pattern under its mount, the mount in lower case", () => {
    expect(routeLabel(req('/API/v1/secret/abc', { baseUrl: '/API/v1', route: { path: '/secret/:key' } }))).toBe('/api/v1/secret/:key');
  });

  it('take a declared pattern for a path no Express route matched, the query aside', () => {
    expect(routeLabel(req('/realm/token?x=1'), routes)).toBe('/realm/token');
    expect(routeLabel(req('/realm/auth/some-uid'), routes)).toBe('/realm/auth/:uid');
  });

  it('count everything else as unmatched, an undecodable or random path included', () => {
    for (const path of ['/realm/auth/', '/realm/auth/a/b', '/realm/%ff', '/x/%ff/y', '/realm/TOKEN']) expect(routeLabel(req(path), routes)).toBe(UNMATCHED_ROUTE);
    expect(routeLabel(req('/realm/token'))).toBe(UNMATCHED_ROUTE);
  });
});
