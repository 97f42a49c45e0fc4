import { startSecrets, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startSecrets();
});
afterAll(() => h.close());

describe('admin CLI (hush-secrets)', () => {
  it('accounts create / list, plans list / set, with --json', async () => {
    expect(await h.cli('accounts', 'create', 'acme-ci', '--plan', 'standard')).toMatchObject({ custid: 'acme-ci', plan: 'standard', created: expect.any(Number) });
    const dup = await h.cliRaw('accounts', 'create', 'acme-ci', '--json');
    expect(dup.code).toBe(1);
    expect(JSON.parse(dup.stdout)).toEqual({ error: 'already_exists', message: 'account acme-ci already exists' });
    expect(await h.cli('plans', 'set', 'acme-ci', 'pro')).toEqual({ custid: 'acme-ci', plan: 'pro' });
    expect(await h.cli('accounts', 'list')).toEqual([expect.objectContaining({ custid: 'acme-ci', plan: 'pro' })]);
    expect(await h.cli('plans', 'list')).toEqual([
      { plan: 'basic', max_secret_length: 1000, default: true },
      { plan: 'standard', max_secret_length: 5000, default: false },
      { plan: 'pro', max_secret_length: 10000, default: false },
    ]);
  });

  it('refuses unknown plans and bad account names', async () => {
    const plan = await h.cliRaw('plans', 'set', 'x', 'platinum', '--json');
    expect(plan.code).toBe(1);
    expect(JSON.parse(plan.stdout).message).toMatch(/unknown plan platinum; plans: basic, standard, pro/);
    const name = await h.cliRaw('tokens', 'create', 'has:colon', '--json');
    expect(name.code).toBe(1);
    expect(JSON.parse(name.stdout).error).toBe('invalid_input');
  });

  it('tokens create prints the token once; list never shows it; revoke stops it; the DB holds only its hash', async () => {
    const minted = await h.cli<{ id: string; api_token: string; custid: string }>('tokens', 'create', 'robot', '--label', 'deploys');
    expect(minted.api_token).toMatch(/^hush_[A-Za-z0-9_-]{43}$/);
    const list = await h.cliRaw('tokens', 'list', 'robot', '--json');
    expect(list.stdout).not.toContain(minted.api_token);
    expect(JSON.stringify(await h.db('api_tokens').select('*'))).not.toContain(minted.api_token);
    expect(await h.cli('tokens', 'revoke', minted.id)).toEqual({ id: minted.id, revoked: true });
    expect((await h.cliRaw('tokens', 'revoke', minted.id, '--json')).code).toBe(1);
    expect((await h.cliRaw('tokens', 'revoke', 'not-a-uuid', '--json')).code).toBe(1);
  });

  it('human output without --json, usage on bad commands', async () => {
    const out = await h.cliRaw('plans', 'list');
    expect(out.stdout).toContain('plan: basic');
    const bad = await h.cliRaw('frobnicate');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Usage: hush-secrets');
  });
});

describe('the API token cache (API_TOKEN_CACHE_SECONDS)', () => {
  it('a token revoked by the CLI (another process) stops within the cache time; one revoked through the API stops at once', async () => {
    const cached = await startSecrets({ API_TOKEN_CACHE_SECONDS: '1' });
    try {
      const account = await cached.account();
      const share = () => cached.http.post('/api/v1/share').set('Authorization', account.auth).send({ secret: 'x' });
      expect((await share()).status).toBe(200);
      const [token] = await cached.cli<{ id: string }[]>('tokens', 'list', account.custid);
      await cached.cli('tokens', 'revoke', (token as { id: string }).id);
      expect((await share()).status).toBe(200); // still cached in this instance
      await new Promise((r) => setTimeout(r, 1100));
      expect((await share()).status).toBe(401);
    } finally {
      await cached.close();
    }
  });
});
