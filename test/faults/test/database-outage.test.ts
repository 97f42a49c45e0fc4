import { adminDatabaseUrl, eventually, probeReadiness, TcpProxy } from '@hush/testing';
import { createClient, errorLines, startIdentityService, startSecretsService, type RunningService } from './services.js';

/**
 * Both services with PostgreSQL behind a proxy this file stalls (a hung or partitioned server)
 * and stops (a server that refuses connections), with a short database timeout. Neither hangs or
 * answers 500: /readyz says 503, requests get 503 with Retry-After, the outage is one error line
 * per service, and both recover without a restart. A stalled PostgreSQL never answers while the
 * test waits: every answer then is the services' own timeouts at work, however long the machine
 * took to give it (how long is not asserted: a busy machine would fail a bound, not the code).
 */
const TIMEOUT_MS = 1000;

const postgres = new TcpProxy(adminDatabaseUrl);
let secrets: RunningService;
let identity: RunningService;
let auth: string;
let client: { id: string; secret: string; scope: string };
let unreadKey: string;

beforeAll(async () => {
  await postgres.start();
  const env = { DATABASE_TIMEOUT_MS: String(TIMEOUT_MS) };
  // CLIENT_CACHE off: every token request reads its client, so the token endpoint needs the database.
  [secrets, identity] = await Promise.all([startSecretsService(postgres, env), startIdentityService(postgres, { ...env, CLIENT_CACHE: 'false' })]);
  const { api_token } = await secrets.cli<{ api_token: string }>('tokens', 'create', 'alice');
  auth = `Basic ${Buffer.from(`alice:${api_token}`).toString('base64')}`;
  client = await createClient(identity);
  unreadKey = (await share()).body['secret_key'] as string;
}, 60_000);

afterAll(async () => {
  await Promise.allSettled([secrets?.close(), identity?.close()]);
  await postgres.stop();
});

interface Answer {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
  text: string;
}

async function send(url: string, init: RequestInit): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* a page */
  }
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body, text };
}

const share = () =>
  send(`${secrets.url}/api/v1/share`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ secret: 'outage test' }),
  });
const token = () =>
  send(`${identity.url}/auth/realms/public/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret, scope: client.scope }).toString(),
  });
const page = () => send(`${secrets.url}/secret/${unreadKey}`, { headers: { accept: 'text/html' } });

async function restore(): Promise<void> {
  await postgres.stop();
  await postgres.start();
}

/** Both services serve again: ready, a share and a token issued. */
async function recovered(): Promise<void> {
  await eventually(
    async () => {
      const [a, b, s, t] = await Promise.all([probeReadiness(secrets.managementUrl), probeReadiness(identity.managementUrl), share(), token()]);
      return a.status === 200 && b.status === 200 && s.status === 200 && t.status === 200 ? true : undefined;
    },
    15_000,
    200,
  );
}

function expectUnavailableApi(answer: Answer): void {
  expect(answer.status).toBe(503);
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
}

describe('PostgreSQL stalled (it accepts connections and never answers)', () => {
  afterEach(restore);

  it('makes /readyz answer 503 naming the database, requests 503 by their timeout, and both services recover without a restart', async () => {
    postgres.stall();
    const [readySecrets, readyIdentity, shared, issued, shown] = await Promise.all([
      probeReadiness(secrets.managementUrl),
      probeReadiness(identity.managementUrl),
      share(),
      token(),
      page(),
    ]);

    for (const ready of [readySecrets, readyIdentity]) {
      expect(ready.status).toBe(503);
      expect(ready.body['database']).toBe('timeout');
    }
    expectUnavailableApi(shared);
    expect(shared.body).toEqual({ message: expect.any(String) as string, code: 'service_unavailable' });
    expectUnavailableApi(issued);
    expect(issued.body['error']).toBe('temporarily_unavailable');
    expectUnavailableApi(shown);
    expect(shown.text).toContain('service_unavailable');

    await restore();
    await recovered();
  }, 30_000);
});

describe('PostgreSQL stopped (it refuses connections)', () => {
  it('answers 503 with Retry-After and logs the outage once per service, with its real code, then its end', async () => {
    await recovered();
    const from = { secrets: secrets.logs.length, identity: identity.logs.length };
    await postgres.stop();

    const answers = await Promise.all([...Array.from({ length: 10 }, share), ...Array.from({ length: 10 }, token), page(), page()]);
    for (const answer of answers) expectUnavailableApi(answer);
    expect(answers.slice(0, 10).map((a) => a.body['code'])).toEqual(Array(10).fill('service_unavailable'));
    expect(answers.slice(10, 20).map((a) => a.body['error'])).toEqual(Array(10).fill('temporarily_unavailable'));

    for (const service of ['secrets', 'identity'] as const) {
      const errors = errorLines((service === 'secrets' ? secrets : identity).logs, from[service]);
      expect(errors).toHaveLength(1);
      // Refused, or (for a connection that was open when the server went) closed under us.
      expect(errors[0]).toMatchObject({ dependency: 'database', code: expect.stringMatching(/^ECONN(REFUSED|RESET)$/) as string, msg: 'database unavailable' });
    }

    await postgres.start();
    await recovered();
    for (const [service, from_] of [
      [secrets, from.secrets],
      [identity, from.identity],
    ] as const) {
      const lines = service.logs.slice(from_).map((l) => JSON.parse(l) as Record<string, unknown>);
      const back = lines.find((l) => l['msg'] === 'database available again');
      expect(back?.['failures']).toBeGreaterThanOrEqual(10);
      expect(errorLines(service.logs, from_)).toHaveLength(1);
    }
  }, 30_000);
});
