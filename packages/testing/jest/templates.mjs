// The run's template databases as the global setup and teardown see them: the names that
// packages/testing/src/databases.ts gives, `hush_template_<service>_<run id>` (and `…_building`
// while one is built), where a run id is `<start time in base 36>_<random>`.
import pg from 'pg';

export const RUN_VARIABLE = 'HUSH_TEST_RUN';
const adminDatabaseUrl = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const templateName = /^hush_template_[a-z]+_(([0-9a-z]+)_[0-9a-f]+)(_building)?$/;

/** Drops every template whose run `select` picks ({ id, startedAt }). */
export async function dropTemplates(select) {
  const admin = new pg.Client({ connectionString: adminDatabaseUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query("SELECT datname FROM pg_database WHERE datname LIKE 'hush\\_template\\_%'");
    for (const { datname } of rows) {
      const match = templateName.exec(datname);
      if (match && select({ id: match[1], startedAt: parseInt(match[2], 36) })) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}
