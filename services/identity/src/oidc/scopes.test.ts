import { withDefaultUserScopes } from './scopes.js';

async function scopeAfter(scope: string, client?: { scope?: string }): Promise<unknown> {
  const ctx = { oidc: { params: { scope } as Record<string, unknown> } };
  await withDefaultUserScopes(ctx, scope, client);
  return ctx.oidc.params['scope'];
}

describe('withDefaultUserScopes', () => {
  it('when a request asks for openid, then profile and email are added', async () => {
    expect(await scopeAfter('openid')).toBe('openid profile email');
    expect(await scopeAfter('openid email')).toBe('openid email profile');
  });

  it('when the client was not given one of them, then only the other is added', async () => {
    expect(await scopeAfter('openid', { scope: 'openid email' })).toBe('openid email');
  });

  it('when the request does not ask for openid, then nothing is added', async () => {
    expect(await scopeAfter('read')).toBe('read');
  });
});
