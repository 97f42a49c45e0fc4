import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { cliDriver, createTestDatabase, eventually, freePort, testRedisUrl, uniquePrefix, type TestDatabase } from '@hush/testing';
import { runCli } from '../../../services/secrets/src/cli/cli.js';

/**
 * `kill -9` of the secrets service (a real process, started as compose starts it: `node
 * dist/src/main.js` with its environment) while clients share secrets as fast as they can. A
 * share the service acknowledged (200 with a secret key) was committed: after a restart every
 * acknowledged secret is readable once, with the value sent, and never a second time.
 */
const CLIENTS = 12;
const LOAD_MS = 1500;

let database: TestDatabase;
let env: NodeJS.ProcessEnv;
let url: string;
/** The management port's origin (/readyz). */
let managementUrl: string;
let auth: string;
let child: ChildProcess | undefined;

async function startService(): Promise<ChildProcess> {
  const started = spawn(process.execPath, ['dist/src/main.js'], { cwd: join(process.cwd(), 'services', 'secrets'), env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  started.stderr?.on('data', (c) => (stderr += String(c)));
  await eventually(async () => {
    if (started.exitCode !== null) throw new Error(`secrets exited ${started.exitCode}: ${stderr}`);
    const res = await fetch(`${managementUrl}/readyz`).catch(() => undefined);
    return res?.status === 200 ? true : undefined;
  }, 20_000);
  return started;
}

beforeAll(async () => {
  database = await createTestDatabase('faults_kill');
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  const managementPort = await freePort();
  managementUrl = `http://127.0.0.1:${managementPort}`;
  env = {
    PATH: process.env.PATH,
    PORT: String(port),
    MANAGEMENT_PORT: String(managementPort),
    BASE_URL: url,
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl,
    REDIS_PREFIX: uniquePrefix('faults-kill'),
    QUEUE_PREFIX: uniquePrefix('faults-kill-q').slice(0, -1),
    MASTER_KEY: randomBytes(32).toString('hex'),
    MAIL_SEALING_KEY: randomBytes(32).toString('hex'),
    PASSPHRASE_HASH_COST: '4',
    PASSPHRASE_WORKERS: '1',
    RATE_LIMIT_MAX: '0',
    LOG_LEVEL: 'warn',
  };
  const { cli } = cliDriver(runCli, env);
  await cli('migrate');
  const { api_token } = await cli<{ api_token: string }>('tokens', 'create', 'loader');
  auth = `Basic ${Buffer.from(`loader:${api_token}`).toString('base64')}`;
}, 30_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
  await database?.drop();
});

/** Shares until the service stops answering; returns what it acknowledged. */
async function shareUntilGone(client: number, acknowledged: Map<string, string>): Promise<void> {
  for (let n = 0; ; n++) {
    const value = `client ${client} secret ${n} ${randomBytes(6).toString('hex')}`;
    let res: Response;
    try {
      res = await fetch(`${url}/api/v1/share`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ secret: value }) });
    } catch {
      return; // the connection died with the process: not acknowledged
    }
    if (res.status !== 200) {
      await res.body?.cancel();
      continue;
    }
    const body = (await res.json().catch(() => undefined)) as { secret_key?: string } | undefined;
    if (body?.secret_key) acknowledged.set(body.secret_key, value);
  }
}

async function read(key: string): Promise<{ status: number; value?: string }> {
  const res = await fetch(`${url}/api/v1/secret/${key}`, { method: 'POST' });
  const body = (await res.json()) as { value?: string };
  return { status: res.status, value: body.value };
}

it('keeps every acknowledged share through kill -9: each readable exactly once after a restart', async () => {
  child = await startService();
  const acknowledged = new Map<string, string>();
  const load = Array.from({ length: CLIENTS }, (_, i) => shareUntilGone(i, acknowledged));
  await new Promise((r) => setTimeout(r, LOAD_MS));
  const killed = once(child, 'exit');
  child.kill('SIGKILL');
  await killed;
  await Promise.all(load);
  expect(acknowledged.size).toBeGreaterThan(0);

  child = await startService();
  const keys = [...acknowledged.keys()];
  const first: { status: number; value?: string }[] = [];
  const again: number[] = [];
  for (let i = 0; i < keys.length; i += CLIENTS) {
    const batch = keys.slice(i, i + CLIENTS);
    first.push(...(await Promise.all(batch.map(read))));
    again.push(...(await Promise.all(batch.map(async (key) => (await read(key)).status))));
  }
  expect(first.map((r) => r.status)).toEqual(keys.map(() => 200));
  expect(first.map((r) => r.value)).toEqual(keys.map((key) => acknowledged.get(key)));
  expect(again).toEqual(keys.map(() => 404));
}, 60_000);
