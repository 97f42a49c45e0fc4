// What both seeding modules build their statements with.

/** Bytes that look random (SHA-256 output), `n` of them, derived from a SQL text expression. */
export const bytes = (expr, n) => {
  const parts = [];
  for (let i = 0; i * 32 < n; i++) parts.push(`sha256(convert_to(${expr} || ':${i}', 'UTF8'))`);
  return `substr(${parts.join(' || ')}, 1, ${n})`;
};

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
