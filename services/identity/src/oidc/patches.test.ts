import { readFileSync } from 'node:fs';
import type Provider from 'oidc-provider';
import type { Configuration } from 'oidc-provider';
import { Redis } from 'ioredis';
import { RateLimits } from '@hush/common';
import { testRedisUrl, uniquePrefix } from '@hush/testing';
import { APP, bareProvider } from '../../test/bare-provider.js';
import { hashClientSecret } from '../clients/client-secret.js';
import { clientAuthLimits } from '../clients/client-auth-failures.js';
import { applyPatches, originalMethod, PATCHED_VERSION, PATCHES, patchedPrototype, type PatchDeps } from './patches.js';
import { ROUTES } from './routes.js';

const installed = (JSON.parse(readFileSync(new URL('../../node_modules/oidc-provider/package.json', import.meta.url), 'utf8')) as { version: string }).version;

let redis: Redis;
let deps: PatchDeps;
beforeAll(() => {
  redis = new Redis(testRedisUrl, { maxRetriesPerRequest: 1 });
  deps = {
    failures: clientAuthLimits(new RateLimits(redis, uniquePrefix('patches-test')), {
      AUTH_FAILURE_WINDOW: 60,
      CLIENT_AUTH_BUCKETS: 1024,
      CLIENT_AUTH_MAX_FAILURES: 5,
      CLIENT_AUTH_MAX_FAILURES_PER_IP: 5,
    }),
  };
});
afterAll(() => redis.disconnect());

/** A bare provider whose client stores its secret hashed, as ours do, with the patches applied. */
async function patched(configuration: Configuration = {}): Promise<{ provider: Provider; request: Awaited<ReturnType<typeof bareProvider>>['request'] }> {
  const bare = await bareProvider(() => [], { clients: [{ ...APP, client_secret: hashClientSecret('app-secret') }], ...configuration });
  applyPatches(bare.provider, deps);
  return bare;
}

describe('the patch guard', () => {
  it('the installed oidc-provider is the version the patches were written against (else: read each replaced method again, then move PATCHED_VERSION)', () => {
    expect(installed).toBe(PATCHED_VERSION);
  });

  it.each(PATCHES.map((p) => [`${p.target}#${p.method}`, p] as const))('%s is still on its prototype, under its name, with its arity', async (_name, patch) => {
    const { provider } = await bareProvider(() => []);
    expect(() => originalMethod(provider, patch)).not.toThrow();
  });

  it('when a replaced method changed its arity, then applying the patches stops the start-up', async () => {
    const { provider } = await bareProvider(() => []);
    function includeSid(_extra: unknown) {
      return false;
    }
    patchedPrototype(provider, 'Client')['includeSid'] = includeSid;
    expect(() => applyPatches(provider, deps)).toThrow(/Client#includeSid/);
  });
});

describe('the patches', () => {
  it('compareClientSecret: the presented secret is compared with the stored hash', async () => {
    const { request } = await patched();
    const right = await request.post(ROUTES.token).type('form').send({ client_id: 'app', client_secret: 'app-secret', grant_type: 'client_credentials' });
    expect(right.status).toBe(200);
    const hash = await request
      .post(ROUTES.token)
      .type('form')
      .send({ client_id: 'app', client_secret: hashClientSecret('app-secret'), grant_type: 'client_credentials' });
    expect(hash.status).toBe(401);
  });

  it('includeSid: every client puts the session id in its tokens', async () => {
    const { provider } = await patched();
    const client = await provider.Client.find('app');
    expect(client?.includeSid()).toBe(true);
  });

  it('Schema#invalidate: an implicit client may redirect to http on the loopback host; other rules still hold', async () => {
    const implicitFlow: Configuration = { responseTypes: ['code', 'id_token token'] };
    const { provider } = await patched(implicitFlow);
    const implicit = { client_id: 'spa', grant_types: ['implicit'], response_types: ['id_token token'] as const, token_endpoint_auth_method: 'none' as const };
    await expect(provider.Client.validate({ ...implicit, redirect_uris: ['http://localhost:8080/cb'] })).resolves.toBeUndefined();
    await expect(provider.Client.validate({ ...implicit, redirect_uris: ['http://localhost:8080/cb#fragment'] })).rejects.toMatchObject({
      error_description: expect.stringMatching(/fragments/),
    });
    const { provider: unpatched } = await bareProvider(() => [], implicitFlow);
    await expect(unpatched.Client.validate({ ...implicit, redirect_uris: ['http://localhost:8080/cb'] })).rejects.toMatchObject({
      error_description: expect.stringMatching(/https/),
    });
  });

  it("Session#ensureClientContainer: every client's sid is the session's uid", async () => {
    const { provider } = await patched();
    type SessionWithClients = { ensureClientContainer(id: string): void; sidFor(id: string): string | undefined };
    const Session = provider.Session as unknown as new (payload: { uid: string; jti: string }) => SessionWithClients;
    const session = new Session({ uid: 'session-uid', jti: 'session-id' });
    session.ensureClientContainer('app');
    session.ensureClientContainer('other');
    expect(session.sidFor('app')).toBe('session-uid');
    expect(session.sidFor('other')).toBe('session-uid');
  });
});
