import { readdirSync } from 'node:fs';
import { LEGACY_PAR_PATH, ROUTES } from '../routes.js';
import { chainOf, KEYCLOAK_MIDDLEWARES } from './middlewares.js';

const names = KEYCLOAK_MIDDLEWARES.map((m) => m.name);
const position = (name: string) => names.indexOf(name);

describe('the Keycloak middleware list', () => {
  it('names each middleware once, each with the reason for its position', () => {
    expect(new Set(names).size).toBe(names.length);
    for (const m of KEYCLOAK_MIDDLEWARES) expect(m.why.length).toBeGreaterThan(20);
  });

  it('registers every middleware of this folder, and only from here', () => {
    const files = readdirSync(new URL('.', import.meta.url))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'middlewares.ts')
      .map((f) => f.slice(0, -3));
    expect([...names].sort()).toEqual(files.sort());
  });

  it('keeps the orders the reasons state', () => {
    expect(position('unavailable')).toBe(0);
    expect(position('cors')).toBe(1);
    expect(position('par-alias')).toBeLessThan(position('token-request-forms'));
    expect(position('token-responses')).toBeLessThan(position('client-credentials-refresh'));
  });

  it('declares for each middleware real protocol routes, each once', () => {
    const routes = Object.keys(ROUTES);
    for (const m of KEYCLOAK_MIDDLEWARES) {
      if (m.routes === 'all') continue;
      for (const route of m.routes) expect(routes).toContain(route);
      expect(new Set(m.routes).size).toBe(m.routes.length);
    }
  });

  it('runs on the token route only what acts on it, in the list order', () => {
    expect(chainOf(KEYCLOAK_MIDDLEWARES, ROUTES.token).map((m) => m.name)).toEqual([
      'unavailable',
      'cors',
      'request-text',
      'client-auth-limiter',
      'token-request-forms',
      'token-responses',
      'client-credentials-refresh',
    ]);
  });

  it('runs every middleware outside the protocol routes, and the PAR chain at the legacy PAR path', () => {
    for (const path of ['/', '/.well-known/openid-configuration', `${ROUTES.token}/`, '/protocol/openid-connect/login-status-iframe.html']) {
      expect(chainOf(KEYCLOAK_MIDDLEWARES, path)).toEqual(KEYCLOAK_MIDDLEWARES);
    }
    const legacy = chainOf(KEYCLOAK_MIDDLEWARES, LEGACY_PAR_PATH).map((m) => m.name);
    expect(legacy).toEqual(chainOf(KEYCLOAK_MIDDLEWARES, ROUTES.pushed_authorization_request).map((m) => m.name));
    expect(legacy.indexOf('par-alias')).toBeLessThan(legacy.indexOf('token-request-forms'));
  });

  it("runs 'all' middlewares on every route", () => {
    for (const path of Object.values(ROUTES)) expect(chainOf(KEYCLOAK_MIDDLEWARES, path)[0]?.name).toBe('unavailable');
  });
});
