import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adminDatabaseUrl } from '@hush/testing';
import { runCli as identityCli } from '../../../services/identity/src/cli/cli.js';
import { runCli as secretsCli } from '../../../services/secrets/src/cli/cli.js';

// The SQL docs/deploy.md gives for the Kubernetes path's database roles, run as written (psql, as
// the administrator) with names of its own on the shared server; then each service's migrations
// run as its role, and neither role can open the other's database.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const admin = new URL(adminDatabaseUrl);
const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const names = { identity: `hdocs_identity_${suffix}`, secrets: `hdocs_secrets_${suffix}` };
const passwords = { identity: randomBytes(12).toString('hex'), secrets: randomBytes(12).toString('hex') };
const urlOf = (role: keyof typeof names, database = names[role]) => `postgres://${names[role]}:${passwords[role]}@${admin.host}/${database}`;

/** The ```sql block of docs/deploy.md that makes the roles. */
function documentedSql(): string {
  const blocks = [...readFileSync(join(root, 'docs', 'deploy.md'), 'utf8').matchAll(/^```sql\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
  const roles = blocks.filter((b) => b.includes('CREATE ROLE hush_identity'));
  expect(roles).toHaveLength(1);
  return roles[0] ?? '';
}

/** psql as an operator runs it, against `url` (the administrator's unless given), stopping at the first error. */
const psql = (args: string[], url = adminDatabaseUrl) =>
  spawnSync('psql', ['-v', 'ON_ERROR_STOP=1', '--no-psqlrc', '--quiet', '--no-align', '--tuples-only', '-d', url, ...args], {
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
  });

afterAll(() => {
  for (const name of Object.values(names)) psql(['-c', `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`]);
  for (const name of Object.values(names)) psql(['-c', `DROP ROLE IF EXISTS "${name}"`]);
});

describe("docs/deploy.md's SQL for the services' roles and databases", () => {
  it('runs as written in psql, as the administrator', () => {
    const sql = documentedSql()
      .replaceAll('change-me-identity', passwords.identity)
      .replaceAll('change-me-secrets', passwords.secrets)
      .replaceAll('hush_identity', names.identity)
      .replaceAll('hush_secrets', names.secrets);
    const dir = mkdtempSync(join(tmpdir(), 'hush-roles-'));
    try {
      writeFileSync(join(dir, 'hush-roles.sql'), sql);
      const run = psql(['-f', join(dir, 'hush-roles.sql')]);
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lets each service's migrations run as its own role, which then owns every table", async () => {
    const env = (role: keyof typeof names) => ({ DATABASE_URL: urlOf(role), MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' });
    const identity = await identityCli(['migrate'], env('identity'));
    const secrets = await secretsCli(['migrate'], env('secrets'));
    expect([identity.code, secrets.code]).toEqual([0, 0]);
    for (const role of ['identity', 'secrets'] as const) {
      const owners = psql(['-c', `SELECT DISTINCT pg_get_userbyid(relowner) FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'`], urlOf(role));
      expect({ role, owners: owners.stdout.trim() }).toEqual({ role, owners: names[role] });
    }
  });

  it("keeps each role out of the other's database", () => {
    for (const [role, other] of [
      ['secrets', 'identity'],
      ['identity', 'secrets'],
    ] as const) {
      const run = psql(['-c', 'SELECT 1'], urlOf(role, names[other]));
      expect({ role, status: run.status, refused: /permission denied for database/.test(run.stderr) }).toEqual({ role, status: 2, refused: true });
    }
  });
});
