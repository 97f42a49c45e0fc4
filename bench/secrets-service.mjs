// The built secrets service (services/secrets/dist) of a checkout, started for a benchmark as
// bench/secrets-api.mjs starts it: a throw-away database migrated with the service's own CLI, an
// API token of the account `bench`, its start script's Node flags, a unique Redis prefix, no rate
// limit in the way; stopped and its database dropped afterwards, whatever happened.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { admin, databaseUrl, healthy, nodeFlags, randomPort, redisUrl } from './common.mjs';

/** Runs `use({ base, auth, pid })` against a fresh service of checkout `root`, with `env` added to its environment. */
export async function withSecretsService(root, env, use) {
  const serviceDir = join(root, 'services', 'secrets');
  const { runCli } = await import(pathToFileURL(join(serviceDir, 'dist', 'src', 'cli', 'cli.js')).href);
  const dbName = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const port = randomPort();
  const base = `http://127.0.0.1:${port}`;
  const full = {
    ...process.env,
    PORT: String(port),
    BASE_URL: base,
    DATABASE_URL: databaseUrl(dbName),
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
    MASTER_KEY: randomBytes(32).toString('hex'),
    MAIL_SEALING_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: '1000000000',
    ...env,
  };
  await admin(`CREATE DATABASE "${dbName}"`);
  let server;
  try {
    if ((await runCli(['migrate', '--json'], full)).code !== 0) throw new Error('migration failed');
    const minted = JSON.parse((await runCli(['tokens', 'create', 'bench', '--json'], full)).stdout);
    const auth = `Basic ${Buffer.from(`bench:${minted.api_token}`).toString('base64')}`;
    server = fork(join(serviceDir, 'dist', 'src', 'main.js'), [], { env: full, execArgv: nodeFlags(root, 'secrets'), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    await healthy(base);
    return await use({ base, auth, pid: server.pid });
  } finally {
    if (server) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    await admin(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  }
}
