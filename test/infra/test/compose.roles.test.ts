import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
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
const services = ['identity', 'secrets'] as const;
type Service = (typeof services)[number];
const migrateCommand = { identity: 'bootstrap', secrets: 'migrate' } as const;

/** Unique role and database names for one scenario, and the secret files that name them. */
function scenario(label: string) {
  const suffix = `${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const names = Object.fromEntries(
    services.map((s) => [s, { role: `h3role_${s}_${suffix}`, database: `h3db_${s}_${suffix}`, password: randomBytes(12).toString('hex') }]),
  ) as Record<Service, { role: string; database: string; password: string }>;
  const dir = mkdtempSync(join(tmpdir(), 'hush-pg-init-'));
  /** The URL a service is given (its role, its password, its database), here on the test server. */
  const urlOf = (s: Service, database = names[s].database) => `postgres://${names[s].role}:${names[s].password}@${admin.host}/${database}`;
  for (const s of services) writeFileSync(join(dir, `${s}_database_url`), `${urlOf(s)}\n`);
  const drop = async () => {
    rmSync(dir, { recursive: true, force: true });
    for (const s of services) await query(adminDatabaseUrl, `DROP DATABASE IF EXISTS "${names[s].database}" WITH (FORCE)`);
    for (const s of services) await query(adminDatabaseUrl, `DROP ROLE IF EXISTS "${names[s].role}"`);
  };
  /** postgres-init.sh as the image runs it: the superuser, the secrets under HUSH_SECRETS_DIR. */
  const init = () =>
    spawnSync('bash', [join(repoRoot, 'infra', 'compose', 'postgres-init.sh')], {
      env: { PATH: process.env.PATH, HUSH_SECRETS_DIR: dir, PGHOST: admin.hostname, PGPORT: admin.port || '5432', POSTGRES_USER: decodeURIComponent(admin.username) },
      encoding: 'utf8',
    });
  return { names, urlOf, drop, init, dir };
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
const connectError = (url: string) =>
  query(url, 'SELECT 1').then(
    () => undefined,
    (err: pg.DatabaseError) => err.code,
  );

/** A service's one-shot (bootstrap or migrate) from its build, against `databaseUrl`; the two services' may run side by side. */
async function migrate(s: Service, databaseUrl: string) {
  const cli = join(repoRoot, 'services', s, 'dist', 'src', 'cli', 'main.js');
  expect({ cli, built: existsSync(cli) }).toEqual({ cli, built: true }); // npx tsc -b first
  const child = spawn(process.execPath, [cli, migrateCommand[s]], {
    cwd: join(repoRoot, 'services', s),
    env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const [status] = (await once(child, 'close')) as [number | null];
  return { s, status, stderr: status === 0 ? '' : stderr };
}

/** Owners of everything in a database's public schema (tables, sequences, views, functions). */
/**
 * Who owns the tables, sequences and functions a service's migrations made, and (`extensions`) the
 * extensions they created. The members of a trusted extension (pg_trgm) belong to the bootstrap
 * superuser by PostgreSQL's design; the extension itself belongs to the role that created it.
 */
async function owners(url: string, { extensions = true } = {}): Promise<string[]> {
  const { rows } = await query(
    url,
    `SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
     UNION SELECT DISTINCT pg_get_userbyid(proowner) FROM pg_proc p WHERE pronamespace = 'public'::regnamespace
       AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
     ${extensions ? "UNION SELECT DISTINCT pg_get_userbyid(extowner) FROM pg_extension WHERE extnamespace = 'public'::regnamespace" : ''}`,
  );
  return rows.map((r: { owner: string }) => r.owner);
}

const fresh = scenario('new');
const { names, urlOf } = fresh;
afterAll(() => fresh.drop());

describe('infra/compose/postgres-init.sh', () => {
  it('creates, for each service, a plain login role that owns its own database', () => {
    const run = fresh.init();
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain(`role ${names.identity.role} owns database ${names.identity.database}`);
  });

  it('refuses a URL without a password or with a name it would have to quote, before touching the server', () => {
    for (const bad of [
      'postgres://hush_identity@postgres:5432/hush_identity',
      'postgres://Hush-Identity:pw@postgres:5432/hush_identity',
      'postgres://r:pw@postgres:5432/db;drop',
    ]) {
      const broken = scenario('bad');
      writeFileSync(join(broken.dir, 'identity_database_url'), `${bad}\n`);
      const run = broken.init();
      rmSync(broken.dir, { recursive: true, force: true });
      expect({ bad, status: run.status, stderr: run.stderr }).toEqual({
        bad,
        status: 1,
        stderr: expect.stringContaining('identity_database_url must be postgres://<role>:<password>@'),
      });
    }
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

  it("runs each service's real migrations as its own role", async () => {
    expect(await Promise.all(services.map((s) => migrate(s, urlOf(s))))).toEqual(services.map((s) => ({ s, status: 0, stderr: '' })));
  }, 60_000);

  it('leaves everything a service created owned by its role', async () => {
    for (const s of services) expect({ s, owners: await owners(urlOf(s)) }).toEqual({ s, owners: [names[s].role] });
  });

  it("keeps each role out of the other service's database, and every other role out of both", async () => {
    expect(await connectError(urlOf('identity', names.secrets.database))).toBe('42501');
    expect(await connectError(urlOf('secrets', names.identity.database))).toBe('42501');
    // PUBLIC holds no right on either database: a role made afterwards cannot connect.
    const outsider = `h3role_outsider_${randomBytes(4).toString('hex')}`;
    await query(adminDatabaseUrl, `CREATE ROLE "${outsider}" LOGIN`);
    try {
      for (const s of services) expect(await connectError(`postgres://${outsider}@${admin.host}/${names[s].database}`)).toBe('42501');
    } finally {
      await query(adminDatabaseUrl, `DROP ROLE "${outsider}"`);
    }
  });
});

describe('infra/compose/postgres-init.sh on a volume made before per-service roles', () => {
  const old = scenario('old');
  afterAll(() => old.drop());

  it('hands each existing database and everything in it to the new role, which then migrates and writes there', async () => {
    // As the compose file had it: both databases made and migrated by the superuser.
    await Promise.all(
      services.map(async (s) => {
        await query(adminDatabaseUrl, `CREATE DATABASE "${old.names[s].database}"`);
        const superuser = new URL(adminDatabaseUrl);
        superuser.pathname = `/${old.names[s].database}`;
        expect(await migrate(s, superuser.toString())).toEqual({ s, status: 0, stderr: '' });
        expect(await owners(superuser.toString())).not.toContain(old.names[s].role);
      }),
    );
    const first = old.init();
    expect({ status: first.status, stderr: first.stderr }).toEqual({ status: 0, stderr: '' });
    for (const s of services) {
      // An extension the superuser created stays its own (PostgreSQL cannot give an extension
      // away); the migrations only ever create pg_trgm if it is missing, so the role needs none.
      expect({ s, owners: await owners(old.urlOf(s), { extensions: false }) }).toEqual({ s, owners: [old.names[s].role] });
    }
    expect(await Promise.all(services.map((s) => migrate(s, old.urlOf(s))))).toEqual(services.map((s) => ({ s, status: 0, stderr: '' })));
    const { rows } = await query(old.urlOf('secrets'), `SELECT count(*)::int AS n FROM knex_migrations`);
    expect((rows[0] as { n: number }).n).toBeGreaterThan(0);
    await query(old.urlOf('secrets'), `UPDATE knex_migrations_lock SET is_locked = is_locked`); // a write, as the role
    expect(await connectError(old.urlOf('identity', old.names.secrets.database))).toBe('42501');
    // Run once more, it changes nothing and succeeds.
    expect(old.init().status).toBe(0);
  }, 90_000);
});
