// What both seeding modules build their statements with.

/** Bytes that look random (SHA-256 output), `n` of them, derived from a SQL text expression. */
export const bytes = (expr, n) => {
  const parts = [];
  for (let i = 0; i * 32 < n; i++) parts.push(`sha256(convert_to(${expr} || ':${i}', 'UTF8'))`);
  return `substr(${parts.join(' || ')}, 1, ${n})`;
};

/**
 * What the secrets service stores of a key made at `created` (a timestamptz expression), with the
 * SHA-256 of the text expression `expr` standing for the key's: the hour the key names (modulo
 * 7,776) as 2 bytes, then that SHA-256 (hashKey in services/secrets/src/secrets/keys.ts), so
 * seeded rows sit in the indexes where the service's own rows of that hour do.
 */
export const keyHash = (created, expr) => `int2send((floor(extract(epoch FROM ${created}) / 3600)::bigint % 7776)::int2) || sha256(convert_to(${expr}, 'UTF8'))`;

/** A bcrypt-shaped hash (cost 12): never checked, only stored. */
export const bcryptLike = (expr) => `'$2b$12$' || translate(substr(encode(${bytes(expr, 40)}, 'base64'), 1, 53), '+', '.')`;

/** A number or text as a SQL literal (the values are the bench's own: sizes and tags). */
const lit = (v) => {
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`not a number: ${v}`);
    return String(v);
  }
  return `'${String(v).replace(/'/g, "''")}'`;
};

/** Runs `sql` with `{name}` placeholders replaced by `values`' literals. */
export async function run(client, sql, values = {}) {
  const text = sql.replace(/\{([a-z]+)\}/g, (_, name) => {
    if (values[name] === undefined) throw new Error(`no value for {${name}}`);
    return lit(values[name]);
  });
  return client.query(text);
}

/** The session settings of a bulk load: no wait for the WAL flush, room to sort. */
export const bulkSession = (client) => client.query(`SET synchronous_commit = off; SET work_mem = '64MB'; SET maintenance_work_mem = '256MB'`);

/**
 * Runs `fn` with `tables`' indexes and keys (and the foreign keys into them) dropped, then builds
 * them again as the migrations defined them: for a load that adds more rows than a table holds,
 * one sorted build of each index is far faster than millions of inserts at random places in
 * indexes larger than PostgreSQL's buffers (each such insert reads a page and, after every
 * checkpoint, writes the whole page to the WAL). Nothing else may use the tables meanwhile.
 */
export async function withoutIndexes(client, tables, fn, log) {
  const { rows: constraints } = await client.query(
    `SELECT conrelid::regclass::text AS tbl, conname, contype, pg_get_constraintdef(oid) AS def FROM pg_constraint
     WHERE contype IN ('p', 'u', 'f') AND (conrelid = ANY($1::regclass[]) OR confrelid = ANY($1::regclass[]))`,
    [tables],
  );
  const { rows: indexes } = await client.query(
    `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS def FROM pg_index i
     WHERE indrelid = ANY($1::regclass[]) AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u'))`,
    [tables],
  );
  const q = (name) => `"${name.replace(/"/g, '""')}"`;
  const foreign = constraints.filter((c) => c.contype === 'f');
  const keys = constraints.filter((c) => c.contype !== 'f');
  for (const c of foreign) await client.query(`ALTER TABLE ${c.tbl} DROP CONSTRAINT ${q(c.conname)}`);
  for (const c of keys) await client.query(`ALTER TABLE ${c.tbl} DROP CONSTRAINT ${q(c.conname)}`);
  for (const i of indexes) await client.query(`DROP INDEX ${i.name}`);
  try {
    await fn();
  } finally {
    const t0 = performance.now();
    await client.query(`SET maintenance_work_mem = '1GB'; SET max_parallel_maintenance_workers = 2`);
    for (const c of keys) await client.query(`ALTER TABLE ${c.tbl} ADD CONSTRAINT ${q(c.conname)} ${c.def}`);
    for (const i of indexes) await client.query(i.def);
    for (const c of foreign) await client.query(`ALTER TABLE ${c.tbl} ADD CONSTRAINT ${q(c.conname)} ${c.def}`);
    log?.(`${tables.join(', ')}: ${keys.length + indexes.length} indexes and ${foreign.length} foreign keys built in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
}
