import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startIdentity, type Harness } from './harness.js';
import { readConfig } from '../src/config.js';
import { ConfigError } from '@hush/common';
import { cliDriver, eventually } from '@hush/testing';
import { runCli } from '../src/cli/cli.js';

let h: Harness;
beforeAll(async () => {
  h = await startIdentity();
});
afterAll(() => h.close());

describe('admin CLI', () => {
  it('creates a client and prints its 256-bit secret once; lists never show it', async () => {
    await h.cli('apis', 'create', 'https://cli.example.com', '--scopes', 'cli:read');
    const created = await h.cli<{ client_id: string; client_secret: string }>('clients', 'create', '--name', 'Build bot', '--grants', 'client_credentials', '--scopes', 'cli:read');
    expect(Buffer.from(created.client_secret, 'base64url').length).toBeGreaterThanOrEqual(32);
    const listed = await h.cli<Record<string, unknown>[]>('clients', 'list');
    expect(JSON.stringify(listed)).not.toContain(created.client_secret);
    expect(listed.find((c) => c['client_id'] === created.client_id)).toMatchObject({ name: 'Build bot', public: false });
  });

  it('rotates a client secret: the new one works at once, the old one stops', async () => {
    await h.cli('apis', 'create', 'https://rotate.example.com', '--scopes', 'rot:read');
    const c = await h.cli<{ client_id: string; client_secret: string }>('clients', 'create', '--name', 'r', '--grants', 'client_credentials', '--scopes', 'rot:read');
    const rotated = await h.cli<{ client_secret: string }>('clients', 'rotate-secret', c.client_id);
    const token = (secret: string) =>
      request(h.issuer)
        .post('/protocol/openid-connect/token')
        .type('form')
        .send({ grant_type: 'client_credentials', scope: 'rot:read', client_id: c.client_id, client_secret: secret });
    expect((await token(c.client_secret)).status).toBe(401);
    expect((await token(rotated.client_secret)).status).toBe(200);
  });

  it('generates a password when none is given and shows it once', async () => {
    const user = await h.cli<{ username: string; password: string }>('users', 'create', 'dave');
    expect(user.password.length).toBeGreaterThanOrEqual(20);
    const listed = await h.cli<Record<string, unknown>[]>('users', 'list');
    expect(JSON.stringify(listed)).not.toContain(user.password);
  });

  it.each([
    [['clients', 'create', '--name', 'x', '--grants', 'password', '--scopes', 'cli:read'], /grant types/],
    [['clients', 'create', '--name', 'x', '--grants', 'client_credentials', '--scopes', 'no:such'], /unknown scope/],
    [['clients', 'create', '--name', 'x', '--grants', 'authorization_code', '--scopes', 'openid'], /redirect URI/],
    [['clients', 'create', '--name', 'x', '--grants', 'client_credentials', '--scopes', 'cli:read', '--org', 'ghost'], /organization ghost not found/],
    [['apis', 'create', 'not-a-uri', '--scopes', 'a'], /absolute URI/],
    [['apis', 'create', 'https://dup.example.com', '--scopes', 'cli:read'], /already belong/],
    [['users', 'create', 'eve', '--password', 'short'], /at least 8/],
    [['orgs', 'create'], /required/],
  ])('refuses bad input with a JSON error and exit code 1: %j', async (args, message) => {
    const result = await h.cliRaw(...args, '--json');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ error: expect.any(String), message: expect.stringMatching(message) });
  });

  it('refuses duplicates', async () => {
    await h.cli('orgs', 'create', 'dupes');
    const again = await h.cliRaw('orgs', 'create', 'dupes', '--json');
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({ error: 'already_exists' });
  });

  it('bootstrap takes SECRETS_API_AUDIENCE from the environment it is given, not from process.env', async () => {
    expect(process.env['SECRETS_API_AUDIENCE']).toBeUndefined();
    const { cli } = cliDriver(runCli, { ...h.env, SECRETS_API_AUDIENCE: 'https://given-env.example.com/api/v1' });
    const result = await cli<{ api: { identifier: string } }>('bootstrap');
    expect(result.api.identifier).toBe('https://given-env.example.com/api/v1');
  });

  it("bootstrap registers the secrets web app's client with the secret it is given as SECRETS_WEB_CLIENT_SECRET_FILE", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hush-web-secret-'));
    try {
      const secret = randomBytes(32).toString('hex');
      writeFileSync(join(dir, 'secret'), `${secret}\n`);
      const { cli } = cliDriver(runCli, {
        ...h.env,
        SECRETS_API_AUDIENCE: 'https://given-env.example.com/api/v1', // registered by the test above
        SECRETS_BASE_URL: 'https://web.example.com',
        SECRETS_WEB_CLIENT_SECRET_FILE: join(dir, 'secret'),
      });
      const result = await cli<{ web_client: { client_id: string; redirect_uri: string } }>('bootstrap');
      expect(result.web_client).toMatchObject({ client_id: 'hush-secrets-web', redirect_uri: 'https://web.example.com/auth/callback' });
      // Client authentication comes first: the right secret gets as far as the (bogus) grant.
      const refresh = (clientSecret: string) =>
        request(h.issuer)
          .post('/protocol/openid-connect/token')
          .type('form')
          .send({ grant_type: 'refresh_token', refresh_token: 'bogus', client_id: 'hush-secrets-web', client_secret: clientSecret });
      // (identity's client cache learns of the replaced client through NOTIFY: eventually)
      await eventually(async () => ((await refresh(secret)).body as { error?: string }).error === 'invalid_grant' || undefined);
      expect((await refresh(randomBytes(32).toString('hex'))).status).toBe(401);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints usage for an unknown command', async () => {
    const result = await h.cliRaw('frobnicate');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: hush-identity');
  });
});

describe('configuration', () => {
  it('has no built-in master key: a missing one is an error naming the variable', () => {
    expect(() => readConfig({})).toThrow(ConfigError);
    expect(() => readConfig({})).toThrow(/MASTER_KEY/);
  });

  it('names a bad variable', () => {
    expect(() => readConfig({ MASTER_KEY: 'a'.repeat(64), PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => readConfig({ MASTER_KEY: 'too-short' })).toThrow(/MASTER_KEY: must be 32 random bytes/);
  });

  it('derives the issuer from AUTH_URL', () => {
    expect(readConfig({ MASTER_KEY: 'a'.repeat(64), AUTH_URL: 'https://id.example.com/' }).issuer).toBe('https://id.example.com/auth/realms/public');
  });
});
