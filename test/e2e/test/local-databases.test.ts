import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminDatabaseUrl, createTestDatabase } from '@hush/testing';

/** scripts/local-databases.mjs, the launcher's plain-JavaScript module, as this test uses it. */
interface LauncherDatabases {
  FRESH_COMMAND: string;
  KeyMismatchError: new (message: string) => Error;
  checkoutTag: (root: string) => string;
  defaultDatabaseUrls: (root: string, options?: { server?: string; prefix?: string }) => { identity: string; secrets: string };
  ensureLocalDatabase: (url: string, masterKey: string, options?: { keyName?: string; envFile?: string }) => Promise<'created' | 'same-key' | 'unmarked'>;
  dropLocalDatabase: (url: string) => Promise<boolean>;
}
const modulePath: string = join(process.cwd(), 'scripts', 'local-databases.mjs');
const { checkoutTag, defaultDatabaseUrls, dropLocalDatabase, ensureLocalDatabase, FRESH_COMMAND, KeyMismatchError } = (await import(modulePath)) as LauncherDatabases;

/**
 * Issue 13: `npm start` from a second clone on the same machine, or from a clone made again after
 * deleting the first, used to find the first clone's databases with its own new master keys
 * (identity: "MASTER_KEY cannot decrypt signing key …", and no next step). The launcher's database
 * logic (scripts/local-databases.mjs) for two checkout paths, against the real PostgreSQL.
 */
const server = adminDatabaseUrl.replace(/\/[^/]*$/, '');
const prefix = `launcher_${randomBytes(3).toString('hex')}`;
const made = new Set<string>();
const dirs: string[] = [];

const nameOf = (url: string) => new URL(url).pathname.slice(1);
const key = () => randomBytes(32).toString('hex');

function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hush-clone-'));
  dirs.push(dir);
  return dir;
}
function urlsOf(root: string) {
  const urls = defaultDatabaseUrls(root, { server, prefix });
  made.add(nameOf(urls.identity)).add(nameOf(urls.secrets));
  return urls;
}

afterAll(async () => {
  for (const name of made) await dropLocalDatabase(`${server}/${name}`);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

it('names each checkout its own databases: stable for one path (through symlinks), different for two', () => {
  const [a, b] = [checkout(), checkout()];
  const link = join(checkout(), 'link');
  symlinkSync(a, link);
  expect(checkoutTag(a)).toMatch(/^[0-9a-f]{8}$/);
  expect(checkoutTag(a)).toBe(checkoutTag(a));
  expect(checkoutTag(link)).toBe(checkoutTag(a));
  expect(checkoutTag(b)).not.toBe(checkoutTag(a));
  expect(defaultDatabaseUrls(a)).toEqual({
    identity: `postgres://postgres@127.0.0.1:5432/hush_identity_${checkoutTag(a)}`,
    secrets: `postgres://postgres@127.0.0.1:5432/hush_secrets_${checkoutTag(a)}`,
  });
});

it('a second clone starts on its own databases while the first keeps its own', async () => {
  const [first, second] = [urlsOf(checkout()), urlsOf(checkout())];
  const [k1, k2] = [key(), key()];
  expect(await ensureLocalDatabase(first.identity, k1)).toBe('created');
  expect(await ensureLocalDatabase(first.secrets, k1)).toBe('created');
  expect(await ensureLocalDatabase(second.identity, k2)).toBe('created');
  expect(await ensureLocalDatabase(second.secrets, k2)).toBe('created');
  // every later start of either clone
  expect(await ensureLocalDatabase(first.identity, k1)).toBe('same-key');
  expect(await ensureLocalDatabase(second.secrets, k2)).toBe('same-key');
});

it('a clone made again at the same path (new .env, new keys) is told what happened and the one command that starts afresh', async () => {
  const root = checkout();
  const urls = urlsOf(root);
  const [lost, fresh] = [key(), key()];
  await ensureLocalDatabase(urls.identity, lost);
  const refused = ensureLocalDatabase(urls.identity, fresh, { keyName: 'IDENTITY_MASTER_KEY', envFile: join(root, '.env') });
  await expect(refused).rejects.toBeInstanceOf(KeyMismatchError);
  const message = await refused.catch((err: Error) => err.message);
  expect(message).toContain(nameOf(urls.identity));
  expect(message).toContain(`another IDENTITY_MASTER_KEY than the one in ${join(root, '.env')}`);
  expect(message).toContain(FRESH_COMMAND);
  expect(FRESH_COMMAND).toBe('npm start -- --fresh');
  expect(message).not.toContain(lost);
  expect(message).not.toContain(fresh);

  // what --fresh does, then the start goes on with empty databases under the new key
  expect(await dropLocalDatabase(urls.identity)).toBe(true);
  expect(await dropLocalDatabase(urls.secrets)).toBe(false);
  expect(await ensureLocalDatabase(urls.identity, fresh)).toBe('created');
  expect(await ensureLocalDatabase(urls.identity, fresh)).toBe('same-key');
});

it('uses a database it did not make as it is, and never deletes one that is not its own', async () => {
  const other = await createTestDatabase('launcher_other');
  try {
    expect(await ensureLocalDatabase(other.url, key())).toBe('unmarked');
    await expect(dropLocalDatabase(other.url)).rejects.toThrow(/refusing to delete/);
    expect(await ensureLocalDatabase(other.url, key())).toBe('unmarked'); // still there
  } finally {
    await other.drop();
  }
});
