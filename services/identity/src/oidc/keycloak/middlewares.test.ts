import { readdirSync } from 'node:fs';
import { KEYCLOAK_MIDDLEWARES } from './middlewares.js';

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
});
