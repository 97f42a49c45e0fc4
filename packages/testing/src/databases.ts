import { randomBytes } from 'node:crypto';
import pg from 'pg';

import { adminDatabaseUrl } from './servers.js';

// Every test file gets databases of its own, uniquely named, so files running at once in Jest's
// workers never meet. Migrating a fresh identity database costs about a second of CPU; a file
// that starts from a template gets a copy of an already migrated one instead (CREATE DATABASE …
// TEMPLATE, a file copy inside PostgreSQL). The first file of a run that asks for a template
// builds it, under an advisory lock so that two workers do not build it twice; the run's global
// teardown (packages/testing/jest/global-teardown.mjs) drops the templates of that run.

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A migrated database to copy: `name` says which (one per service), `migrate` brings an empty database to it. */
export interface DatabaseTemplate {
  name: string;
  migrate(url: string): Promise<void>;
}

/** The run id the global setup gives every worker; templates of one run carry it in their names. */
export const TEST_RUN_VARIABLE = 'HUSH_TEST_RUN';
/** Every template's name starts so (then the service, then the run id). */
export const TEMPLATE_PREFIX = 'hush_template_';

/**
 * Creates a uniquely named database, empty or, given a template, as the template's migrations left
 * it; `drop()` removes it (forcing out stray connections). Outside a Jest run (no run id) the
 * database is empty and the caller's own migration does all the work, as it does after a copy.
 */
export async function createTestDatabase(prefix: string, template?: DatabaseTemplate): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`.toLowerCase();
  const runId = process.env[TEST_RUN_VARIABLE];
  await withAdmin(async (admin) => {
    const source = template && runId ? await ensureTemplate(admin, template, runId) : undefined;
    await admin.query(`CREATE DATABASE "${name}"${source ? ` TEMPLATE "${source}"` : ''}`);
  });
  return {
    url: databaseUrl(name),
    name,
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** The template of `template.name` for this run, built by whoever asks first (`admin` holds the lock while it builds). */
async function ensureTemplate(admin: pg.Client, template: DatabaseTemplate, runId: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${template.name}_${runId}`.toLowerCase();
  if (await exists(admin, name)) return name;
  await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
  try {
    if (await exists(admin, name)) return name;
    // Built under another name and renamed when complete: a build cut short never passes for a template.
    const building = `${name}_building`;
    await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${building}"`);
    await template.migrate(databaseUrl(building));
    await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    return name;
  } finally {
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
  }
}

async function exists(admin: pg.Client, name: string): Promise<boolean> {
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  return rowCount === 1;
}

function databaseUrl(name: string): string {
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(use: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminDatabaseUrl });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
}
