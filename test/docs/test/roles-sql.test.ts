import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
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

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  for (const name of Object.values(names)) await query(adminDatabaseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  for (const name of Object.values(names)) await query(adminDatabaseUrl, `DROP ROLE IF EXISTS "${name}"`);
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
      const run = spawnSync('psql', ['-v', 'ON_ERROR_STOP=1', '--no-psqlrc', '--quiet', '-d', 'postgres', '-f', join(dir, 'hush-roles.sql')], {
        env: { PATH: process.env.PATH, PGHOST: admin.hostname, PGPORT: admin.port || '5432', PGUSER: decodeURIComponent(admin.username) },
        encoding: 'utf8',
      });
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lets each service's migrations run as its own role", async () => {
    const env = (role: keyof typeof names) => ({ DATABASE_URL: urlOf(role), MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' });
    const identity = await identityCli(['migrate'], env('identity'));
    const secrets = await secretsCli(['migrate'], env('secrets'));
    expect([identity.code, secrets.code]).toEqual([0, 0]);
    const { rows } = await query(
      urlOf('identity'),
      `SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'`,
    );
    expect(rows).toEqual([{ owner: names.identity }]);
  });

  it("keeps each role out of the other's database", async () => {
    const refused = (url: string) =>
      query(url, 'SELECT 1').then(
        () => 'connected',
        (err: pg.DatabaseError) => err.code,
      );
    expect(await refused(urlOf('secrets', names.identity))).toBe('42501');
    expect(await refused(urlOf('identity', names.secrets))).toBe('42501');
  });
});
