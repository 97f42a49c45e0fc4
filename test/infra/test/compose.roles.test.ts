import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { adminDatabaseUrl } from '@hush/testing';
import { repoRoot } from './services.contract.js';

// infra/compose/postgres-init.sh run for real, as the postgres image runs it at first start, against
// the shared PostgreSQL with names of its own: each service's role owns its database, runs its
// migrations there as itself, and cannot even connect to the other service's database.

const admin = new URL(adminDatabaseUrl);
const suffix = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const services = ['identity', 'secrets'] as const;
const names = Object.fromEntries(services.map((s) => [s, { role: `h3role_${s}_${suffix}`, database: `h3db_${s}_${suffix}`, password: randomBytes(12).toString('hex') }])) as Record<
  (typeof services)[number],
  { role: string; database: string; password: string }
>;
/** The URL a service is given (its role, its password, its database), here on the test server. */
const urlOf = (s: (typeof services)[number], database = names[s].database) => `postgres://${names[s].role}:${names[s].password}@${admin.host}/${database}`;

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}
const connectError = (url: string) =>
  query(url, 'SELECT 1').then(
    () => undefined,
    (err: pg.DatabaseError) => err.code,
  );

let secretsDir: string;
beforeAll(() => {
  secretsDir = mkdtempSync(join(tmpdir(), 'hush-pg-init-'));
  for (const s of services) writeFileSync(join(secretsDir, `${s}_database_url`), `${urlOf(s)}\n`);
});
afterAll(async () => {
  rmSync(secretsDir, { recursive: true, force: true });
  for (const s of services) await query(adminDatabaseUrl, `DROP DATABASE IF EXISTS "${names[s].database}" WITH (FORCE)`);
  for (const s of services) await query(adminDatabaseUrl, `DROP ROLE IF EXISTS "${names[s].role}"`);
});

describe('infra/compose/postgres-init.sh', () => {
  it('creates, for each service, a plain login role that owns its own database', () => {
    const run = spawnSync('bash', [join(repoRoot, 'infra', 'compose', 'postgres-init.sh')], {
      env: { PATH: process.env.PATH, HUSH_SECRETS_DIR: secretsDir, PGHOST: admin.hostname, PGPORT: admin.port || '5432', POSTGRES_USER: decodeURIComponent(admin.username) },
      encoding: 'utf8',
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain(`role ${names.identity.role} owns database ${names.identity.database}`);
  });

  it('gives the roles no power beyond their databases', async () => {
    const { rows } = await query(
      adminDatabaseUrl,
      `SELECT r.rolname, r.rolsuper, r.rolcreatedb, r.rolcreaterole, r.rolreplication, r.rolcanlogin, r.rolpassword IS NOT NULL AS has_password,
              (SELECT array_agg(d.datname::text) FROM pg_database d WHERE d.datdba = r.oid) AS owns
         FROM pg_authid r WHERE r.rolname IN ('${names.identity.role}', '${names.secrets.role}') ORDER BY r.rolname`,
    );
    expect(rows).toEqual(
      services.map((s) => ({
        rolname: names[s].role,
        rolsuper: false,
        rolcreatedb: false,
        rolcreaterole: false,
        rolreplication: false,
        rolcanlogin: true,
        has_password: true,
        owns: [names[s].database],
      })),
    );
  });

  it("runs each service's real migrations as its own role", () => {
    for (const [s, command] of [
      ['identity', 'bootstrap'],
      ['secrets', 'migrate'],
    ] as const) {
      const cli = join(repoRoot, 'services', s, 'dist', 'src', 'cli', 'main.js');
      expect({ cli, built: existsSync(cli) }).toEqual({ cli, built: true }); // npx tsc -b first
      const run = spawnSync(process.execPath, [cli, command], {
        cwd: join(repoRoot, 'services', s),
        env: { PATH: process.env.PATH, DATABASE_URL: urlOf(s), MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      });
      expect({ s, status: run.status, stderr: run.status === 0 ? '' : run.stderr }).toEqual({ s, status: 0, stderr: '' });
    }
  }, 60_000);

  it('leaves every table a service created owned by its role', async () => {
    for (const s of services) {
      const { rows } = await query(urlOf(s), `SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname = 'public'`);
      expect({ s, owners: rows.map((r: { tableowner: string }) => r.tableowner) }).toEqual({ s, owners: [names[s].role] });
    }
  });

  it("keeps each role out of the other service's database, and every other role out of both", async () => {
    expect(await connectError(urlOf('identity', names.secrets.database))).toBe('42501');
    expect(await connectError(urlOf('secrets', names.identity.database))).toBe('42501');
    // PUBLIC holds no right on either database: a role made afterwards cannot connect.
    const outsider = `h3role_outsider_${suffix}`;
    await query(adminDatabaseUrl, `CREATE ROLE "${outsider}" LOGIN`);
    try {
      for (const s of services) expect(await connectError(`postgres://${outsider}@${admin.host}/${names[s].database}`)).toBe('42501');
    } finally {
      await query(adminDatabaseUrl, `DROP ROLE "${outsider}"`);
    }
  });
});
