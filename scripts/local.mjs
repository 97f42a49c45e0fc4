#!/usr/bin/env node
// Runs a Hush service or admin CLI locally, with the same entry points and environment variables
// as the containers. On first use it writes `.env` (git-ignored) with a random MASTER_KEY and
// local database URLs, and creates the databases on the local PostgreSQL.
//
//   node scripts/local.mjs identity          migrate + bootstrap, then start identity (:8080)
//   node scripts/local.mjs identity-cli ...  the identity admin CLI
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const envFile = join(root, '.env');

const DEFAULTS = () => `# Local development settings, written by scripts/local.mjs. Never commit this file.
MASTER_KEY=${randomBytes(32).toString('hex')}
IDENTITY_DATABASE_URL=postgres://postgres@127.0.0.1:5432/hush_identity
SECRETS_DATABASE_URL=postgres://postgres@127.0.0.1:5432/hush_secrets
REDIS_URL=redis://127.0.0.1:6379
AUTH_URL=http://localhost:8080
BASE_URL=http://localhost:3000
`;

function loadEnv() {
  if (!existsSync(envFile)) {
    writeFileSync(envFile, DEFAULTS(), { mode: 0o600 });
    process.stderr.write(`wrote ${envFile} with a new random MASTER_KEY\n`);
  }
  const env = {};
  for (const line of readFileSync(envFile, 'utf8').split('\n')) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*)\s*$/.exec(line);
    if (m) env[m[1]] = m[2];
  }
  // Real environment variables win over .env.
  return { ...env, ...process.env };
}

async function ensureDatabase(url) {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
}

function run(entry, args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, entry), ...args], { env, stdio: 'inherit' });
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

const [target, ...args] = process.argv.slice(2);
const env = loadEnv();
const identityEnv = { ...env, DATABASE_URL: env.IDENTITY_DATABASE_URL, PORT: env.IDENTITY_PORT ?? '8080', SECRETS_API_AUDIENCE: `${env.BASE_URL}/api/v1` };
const IDENTITY_CLI = 'services/identity/dist/src/cli/main.js';

switch (target) {
  case 'identity': {
    await ensureDatabase(identityEnv.DATABASE_URL);
    const code = await run(IDENTITY_CLI, ['bootstrap'], identityEnv);
    if (code !== 0) process.exit(code);
    process.exit(await run('services/identity/dist/src/main.js', args, identityEnv));
    break;
  }
  case 'identity-cli':
    await ensureDatabase(identityEnv.DATABASE_URL);
    process.exit(await run(IDENTITY_CLI, args, identityEnv));
    break;
  default:
    process.stderr.write('usage: node scripts/local.mjs identity | identity-cli <args>\n');
    process.exit(2);
}
