// The local launcher's databases (scripts/local.mjs): one pair per checkout, each marked with a
// fingerprint of the master key whose data it holds, so a second clone (or a clone made again after
// deleting the first) never opens another checkout's data with its own, different keys.
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import pg from 'pg';

/** The one command that starts afresh, as the launcher prints it. */
export const FRESH_COMMAND = 'npm start -- --fresh';

/** What a database's comment starts with when the launcher created it. */
const MARK = 'hush local launcher: data of master key ';

/** A short tag of a checkout's directory: stable for one path, different for two. */
export function checkoutTag(root) {
  let path = root;
  try {
    path = realpathSync(root);
  } catch {
    /* a path that does not exist (yet) is tagged as written */
  }
  return createHash('sha256').update(path).digest('hex').slice(0, 8);
}

/** The database URLs a new checkout gets: hush_identity_<tag> and hush_secrets_<tag> on the local PostgreSQL. */
export function defaultDatabaseUrls(root, { server = 'postgres://postgres@127.0.0.1:5432', prefix = 'hush' } = {}) {
  const tag = checkoutTag(root);
  return { identity: `${server}/${prefix}_identity_${tag}`, secrets: `${server}/${prefix}_secrets_${tag}` };
}

/** A fingerprint of a master key (a hash: the key itself never leaves .env). */
export function keyFingerprint(masterKey) {
  return createHash('sha256').update('hush local database owner\0').update(String(masterKey)).digest('hex').slice(0, 16);
}

/** The data in a database belongs to another master key than the one this checkout has. */
export class KeyMismatchError extends Error {
  name = 'KeyMismatchError';
}

const databaseName = (url) => decodeURIComponent(new URL(url).pathname.slice(1));
const where = (url) => `${databaseName(url)} on ${new URL(url).host}`;

async function withAdmin(url, fn) {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const commentOf = async (client, name) => {
  const { rows } = await client.query("SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1", [name]);
  return rows.length === 0 ? undefined : (rows[0].comment ?? '');
};

/** What the person reads when a checkout's keys do not fit its databases. */
export function mismatchAdvice({ keyName, envFile }) {
  return [
    `It holds data written with another ${keyName} than the one in ${envFile}: this checkout was`,
    'deleted and cloned again, or its .env was replaced. That data cannot be read with these keys.',
    `  - If you still have the old .env, put it back and start again.`,
    `  - To start afresh with empty databases (deletes this checkout's local databases and demo user): ${FRESH_COMMAND}`,
  ].join('\n');
}

/**
 * Creates the database when missing, marked with the fingerprint of `masterKey`. An existing one
 * marked with another key is refused (KeyMismatchError, with the next step); one without a mark
 * (made before the launcher marked them, or by someone else) is used as it is.
 * @returns {'created' | 'same-key' | 'unmarked'}
 */
export async function ensureLocalDatabase(url, masterKey, { keyName = 'MASTER_KEY', envFile = '.env' } = {}) {
  const name = databaseName(url);
  const mark = MARK + keyFingerprint(masterKey);
  return withAdmin(url, async (client) => {
    const comment = await commentOf(client, name);
    if (comment === undefined) {
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
      } catch (err) {
        if (err.code !== '42P04') throw err; // created meanwhile by another start: check its mark below
        return ensureLocalDatabase(url, masterKey, { keyName, envFile });
      }
      await client.query(`COMMENT ON DATABASE ${client.escapeIdentifier(name)} IS ${client.escapeLiteral(mark)}`);
      return 'created';
    }
    if (!comment.startsWith(MARK)) return 'unmarked';
    if (comment === mark) return 'same-key';
    throw new KeyMismatchError(`The database ${where(url)} was set up with other keys than this checkout's.\n${mismatchAdvice({ keyName, envFile })}`);
  });
}

/**
 * Deletes a database for `--fresh`: only one the launcher made (marked) or named as it names them
 * (hush_identity…, hush_secrets…); connections still open to it are ended.
 * @returns {boolean} whether it existed
 */
export async function dropLocalDatabase(url) {
  const name = databaseName(url);
  return withAdmin(url, async (client) => {
    const comment = await commentOf(client, name);
    if (comment === undefined) return false;
    if (!comment.startsWith(MARK) && !/^hush_(identity|secrets)(_|$)/.test(name)) {
      throw new Error(`refusing to delete ${where(url)}: the launcher did not create it (delete it yourself if you mean to)`);
    }
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
    return true;
  });
}
